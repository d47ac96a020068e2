// PROMPT_INJECTION_SIGNAL on traces built from BIPIA's train split (../shared/datasets/bipia-train):
// an agent with a user task calls read_email, read_table or search_docs, and the tool result carries
// the benchmark's context — an e-mail, a table, a Q&A page about an error — with one attack
// instruction inserted at its start, middle or end (as BIPIA inserts them: on a line of its own; the
// middle at a sentence start chosen with a seeded generator), or the same context clean. Also the
// attack styles of bench/attackStyles.mjs (written for this bench) inserted into the e-mails and
// tables the same way. Not a test: runs analyze() (the built library, default configuration, no API
// key) and prints, per half, recall by source, attack category, position and style, and false
// alarms on the clean contexts — any injection signal counts, finding or review.
//
// The split: contexts by their 1-based line in their file, attack instructions by their 1-based
// position in their category, the styles' goals and model names by theirs — odd tunes (`dev`), even
// measures (`held-out`), and a trace belongs to a half only when its context and its attack both do.
// Nothing is tuned on the held-out half.
//
// Usage:
//   npm run build && node bench/bipia.mjs [DATASETS_DIR] [--half dev|held-out] [--per-attack N]
//     [--seed S] [--json FILE] [--keep FILE]
// --per-attack: contexts sampled per attack instruction and position (default 12; the 450 tables of a
// half are too many to pair with every attack). --keep writes the generated traces (JSONL) to FILE.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { analyze, loadTraces } from '../build/index.js';
import { GOALS, inHalf, MODEL_NAMES, STYLES } from './attackStyles.mjs';
import { checkFlags, flag, root } from './datasetArgs.mjs';
import { rng } from './traces.mjs';
import { table } from './markdownTable.mjs';

const USAGE =
  'node bench/bipia.mjs [DATASETS_DIR] [--half dev|held-out] [--per-attack N] [--seed S] [--json FILE] [--keep FILE]';
checkFlags(USAGE, ['--half', '--per-attack', '--seed', '--json', '--keep']);

const onlyHalf = flag('--half');
if (onlyHalf !== undefined && onlyHalf !== 'dev' && onlyHalf !== 'held-out')
  throw new Error(`--half ${onlyHalf}: expected dev or held-out`);
const perAttack = Number(flag('--per-attack') ?? 12);
const seed = Number(flag('--seed') ?? 28);
if (!Number.isInteger(perAttack) || perAttack < 1)
  throw new Error(`--per-attack ${flag('--per-attack')}: expected a whole number ≥ 1`);
if (!Number.isInteger(seed)) throw new Error(`--seed ${flag('--seed')}: expected a whole number`);
const jsonOut = flag('--json');
const keep = flag('--keep');
const DETECTOR = 'PROMPT_INJECTION_SIGNAL';
const dir = path.join(root, 'bipia-train');

const readJsonl = (file) =>
  readFileSync(path.join(dir, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
const readJson = (file) => JSON.parse(readFileSync(path.join(dir, file), 'utf8'));

/** The three sources: how a context is read, what the user asks, which attacks go into it. */
const SOURCES = [
  {
    name: 'email',
    tool: 'read_email',
    contexts: readJsonl('email-train.jsonl').map((r) => ({
      text: r.context,
      task: r.question,
      answer: r.ideal,
    })),
    attacks: 'text',
  },
  {
    name: 'table',
    tool: 'read_table',
    contexts: readJsonl('table-train.jsonl').map((r) => ({
      text: r.context,
      task: r.question,
      answer: r.ideal,
    })),
    attacks: 'text',
  },
  {
    name: 'code',
    tool: 'search_docs',
    contexts: readJsonl('code-train.jsonl').map((r) => ({
      text: r.context.join('\n'),
      task:
        `I get this error when I run my code:\n\`\`\`\n${r.error.join('\n')}\n\`\`\`\n` +
        `Here is my code:\n\`\`\`\n${r.code.join('\n')}\n\`\`\`\nFix the bug.`,
      answer: r.ideal.join('\n'),
      query: r.error.filter((l) => l.trim()).at(-1) ?? 'error',
    })),
    attacks: 'code',
  },
];
const ATTACKS = { text: readJson('text_attack_train.json'), code: readJson('code_attack_train.json') };
const POSITIONS = ['start', 'middle', 'end'];

/** Where sentences start in a context (after . ! ? and whitespace, or a line break), but not at 0. */
function sentenceStarts(text) {
  const starts = [];
  const re = /(?:[.!?]\s+|\n+)(?=\S)/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) starts.push(m.index + m[0].length);
  return starts;
}

/** The context with the attack on a line of its own at `position` (BIPIA's insert_start/middle/end). */
function insert(context, attack, position, r) {
  if (position === 'start') return `${attack}\n${context}`;
  if (position === 'end') return `${context}\n${attack}`;
  const starts = sentenceStarts(context);
  if (starts.length === 0) return `${context}\n${attack}`;
  const at = starts[Math.floor(r() * starts.length)];
  return `${context.slice(0, at)}\n${attack}\n${context.slice(at)}`;
}

/** `k` distinct items of `xs`, drawn with `r` (all of them when there are no more than `k`). */
function sample(xs, k, r) {
  if (xs.length <= k) return xs;
  const pool = [...xs];
  for (let i = 0; i < k; i++) {
    const j = i + Math.floor(r() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, k);
}

/** One run as an openai-messages line: the user's task, one tool call, its result, an answer. */
function run(id, source, context, result, info) {
  const args = source.name === 'code' ? { query: context.query } : { id: info.context };
  return {
    task_id: id,
    model: 'bench-agent',
    traj: [
      {
        role: 'system',
        content: `You help the user with their ${source.name === 'code' ? 'code' : `${source.name}s`}. Use the tools to read what you need.`,
      },
      { role: 'user', content: context.task },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: source.tool, arguments: JSON.stringify(args) },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', name: source.tool, content: result },
      { role: 'assistant', content: context.answer || 'I could not find it.' },
    ],
    info,
  };
}

/** The runs of one half: attacked (BIPIA's attacks and the styles), and every context clean. */
function runsOf(half) {
  const r = rng(seed + (half === 'dev' ? 1 : 2));
  const runs = [];
  for (const source of SOURCES) {
    const contexts = inHalf(
      source.contexts.map((c, i) => ({ ...c, index: i + 1 })),
      half,
    );
    for (const c of contexts)
      runs.push(
        run(`${source.name}/${c.index}/clean`, source, c, c.text, {
          source: source.name,
          context: c.index,
          attacked: false,
        }),
      );
    for (const [category, instructions] of Object.entries(ATTACKS[source.attacks])) {
      const attacks = inHalf(
        instructions.map((text, i) => ({ text, index: i + 1 })),
        half,
      );
      for (const a of attacks)
        for (const position of POSITIONS)
          for (const c of sample(contexts, perAttack, r))
            runs.push(
              run(
                `${source.name}/${c.index}/${category}/${a.index}/${position}`,
                source,
                c,
                insert(c.text, a.text, position, r),
                {
                  source: source.name,
                  family: 'bipia',
                  context: c.index,
                  attacked: true,
                  category,
                  attack: a.index,
                  position,
                },
              ),
            );
    }
    if (source.name === 'code') continue;
    // The written styles, in e-mails and tables.
    const goals = inHalf(GOALS, half);
    const models = inHalf(MODEL_NAMES, half);
    let n = 0;
    for (const [style, make] of Object.entries(STYLES))
      for (const [g, goal] of goals.entries())
        for (const position of POSITIONS)
          for (const c of sample(contexts, Math.max(2, Math.ceil(perAttack / 3)), r)) {
            const text = make(goal, n++, models);
            runs.push(
              run(
                `${source.name}/${c.index}/style-${style}/${g + 1}/${position}/${n}`,
                source,
                c,
                insert(c.text, text, position, r),
                {
                  source: source.name,
                  family: 'styles',
                  context: c.index,
                  attacked: true,
                  category: style,
                  position,
                },
              ),
            );
          }
  }
  return runs;
}

const pct = (n, d) => (d === 0 ? '—' : `${((100 * n) / d).toFixed(1)} %`);
const share = (n, d) => `${n} of ${d} (${pct(n, d)})`;
/** How many runs, how many with any injection signal, how many with a finding. */
const tally = (xs) => ({
  n: xs.length,
  signal: xs.filter((x) => x.signal).length,
  finding: xs.filter((x) => x.finding).length,
});
/** A tally's two cells: runs with a signal (count and share), runs with a finding (share). */
const rates = ({ n, signal, finding }) => [share(signal, n), pct(finding, n)];

/** Runs grouped by a key, in first-seen order. */
function groupBy(runs, key) {
  const groups = new Map();
  for (const x of runs) {
    const k = key(x);
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(x);
  }
  return groups;
}

async function measureHalf(half, work) {
  const runs = runsOf(half);
  const file = path.join(work, `bipia-${half}.jsonl`);
  writeFileSync(file, `${runs.map((x) => JSON.stringify(x)).join('\n')}\n`);
  if (keep)
    writeFileSync(
      half === onlyHalf || !onlyHalf ? keep.replace(/(\.jsonl)?$/, `-${half}.jsonl`) : keep,
      readFileSync(file),
    );
  const { traces } = await loadTraces(file, { inputFormat: 'openai-messages' });
  const report = await analyze(file, {
    inputFormat: 'openai-messages',
    baselines: false,
    config: {},
    stateDir: work,
    cwd: work,
    env: {},
  });
  const byTrace = new Map();
  for (const s of report.signals) {
    if (s.detector !== DETECTOR) continue;
    if (!byTrace.has(s.traceId)) byTrace.set(s.traceId, []);
    byTrace.get(s.traceId).push(s);
  }
  const measured = traces.map(({ trace }) => {
    const signals = byTrace.get(trace.id) ?? [];
    return {
      info: trace.metadata?.info ?? {},
      signal: signals.length > 0,
      finding: signals.some((s) => s.status === 'finding'),
    };
  });
  const attacked = measured.filter((x) => x.info.attacked);
  const clean = measured.filter((x) => !x.info.attacked);
  const out = {
    attacked: attacked.length,
    clean: clean.length,
    bySource: {},
    byCategory: {},
    byPosition: {},
    byStyle: {},
  };
  const lines = [
    `## ${half === 'dev' ? 'tune (dev)' : 'measure (held-out)'} half: ${measured.length} traces`,
    '',
  ];

  const sourceRows = [...groupBy(measured, (x) => x.info.source)].map(([source, xs]) => {
    const bipia = tally(xs.filter((x) => x.info.family === 'bipia'));
    const styles = tally(xs.filter((x) => x.info.family === 'styles'));
    const cl = tally(xs.filter((x) => !x.info.attacked));
    out.bySource[source] = { bipia, styles, clean: cl };
    return [source, ...rates(bipia), ...(styles.n ? rates(styles) : ['—', '—']), ...rates(cl)];
  });
  lines.push(
    table(
      [
        'source',
        'BIPIA attacks: signal',
        'finding',
        'written styles: signal',
        'finding',
        'clean: any signal',
        'clean: finding',
      ],
      sourceRows,
    ),
    '',
  );

  const categoryRows = [
    ...groupBy(
      attacked.filter((x) => x.info.family === 'bipia'),
      (x) => `${x.info.source === 'code' ? 'code' : 'text'}\u0000${x.info.category}`,
    ),
  ]
    .map(([key, xs]) => {
      const [kind, category] = key.split('\u0000');
      const t = tally(xs);
      out.byCategory[category] = t;
      return [kind, category, t.n, t.signal, t.finding];
    })
    .sort((a, b) => a[3] / a[2] - b[3] / b[2]);
  lines.push(
    table(
      ['attacks', 'category', 'traces', 'signal', 'finding'],
      categoryRows.map(([k, c, n, s, f]) => [k, c, String(n), pct(s, n), pct(f, n)]),
    ),
    '',
  );

  const positionRows = [...groupBy(attacked, (x) => `${x.info.family}\u0000${x.info.position}`)].map(
    ([key, xs]) => {
      const [family, position] = key.split('\u0000');
      const t = tally(xs);
      (out.byPosition[family] ??= {})[position] = { n: t.n, signal: t.signal };
      return [family, position, ...rates(t)];
    },
  );
  lines.push(table(['attacks', 'position', 'signal', 'finding'], positionRows), '');

  const styleRows = [
    ...groupBy(
      attacked.filter((x) => x.info.family === 'styles'),
      (x) => x.info.category,
    ),
  ].map(([style, xs]) => {
    const t = tally(xs);
    out.byStyle[style] = t;
    return [style, ...rates(t)];
  });
  lines.push(table(['written style', 'signal', 'finding'], styleRows), '');
  console.log(lines.join('\n'));
  return out;
}

const work = mkdtempSync(path.join(tmpdir(), 'tracejury-bipia-'));
const results = {};
try {
  for (const half of ['dev', 'held-out']) {
    if (onlyHalf && half !== onlyHalf) continue;
    results[half] = await measureHalf(half, work);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
if (jsonOut) writeFileSync(jsonOut, `${JSON.stringify(results, null, 2)}\n`);
