// The examples' diff: two analyses of copies of examples/traces, each from its own directory so
// file names match. Base lacks one needless fallback (blog_draft_3001), head lacks one overkill
// call (quick_math_5001): the diff has a new high finding, a resolved one and a waste rise. What
// docs/pr-comment.png shows (scripts/render-comment-png.mjs) and what the comment's budget tests
// measure, from one recipe. `analyze` is the library's (build/ for the script, src/ for tests).
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export async function examplesReports(analyze) {
  const tmp = mkdtempSync(path.join(tmpdir(), 'tj-examples-diff-'));
  const llmCalls = readFileSync(path.join(root, 'examples/traces/llm-calls.jsonl'), 'utf8');
  const without = (traceId) =>
    llmCalls
      .split('\n')
      .filter((l) => !l.includes(`"traceId": "${traceId}"`))
      .join('\n');
  const analyseWithout = async (side, dropped) => {
    const dir = path.join(tmp, side);
    cpSync(path.join(root, 'examples'), path.join(dir, 'examples'), { recursive: true });
    rmSync(path.join(dir, 'examples/workflows'), { recursive: true, force: true });
    writeFileSync(path.join(dir, 'examples/traces/llm-calls.jsonl'), without(dropped));
    return analyze(['examples/traces'], {
      cwd: dir,
      configFile: path.join(dir, 'examples/tracejury.yml'),
      stateDir: mkdtempSync(path.join(tmp, 'state-')),
    });
  };
  const base = await analyseWithout('base', 'blog_draft_3001');
  const head = await analyseWithout('head', 'quick_math_5001');
  rmSync(tmp, { recursive: true, force: true });
  return { base, head };
}
