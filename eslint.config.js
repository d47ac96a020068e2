import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The layers (ARCHITECTURE.md, "Layers"): a folder may import only what sits below it in the data
 * flow. `forbidden` lists, per folder, the folders it must never import; redact/ and util/ sit
 * below every stage. ARCHITECTURE.md's layer table is generated from this object
 * (`node scripts/architecture-layers.mjs`), and test/architecture/ checks that these rules catch a
 * bad import and that the table is current.
 */
export const LAYERS = {
  'src/util': [
    'trace',
    'detect',
    'judge',
    'report',
    'tiers',
    'session',
    'baseline',
    'config',
    'cli',
    'action',
    'redact',
    'pricing',
    'diff',
    'embed',
    'run',
    'trajectory',
    'attribute',
  ],
  'src/redact': [
    'trace',
    'detect',
    'judge',
    'report',
    'tiers',
    'session',
    'baseline',
    'config',
    'cli',
    'action',
    'pricing',
    'diff',
    'embed',
    'run',
    'trajectory',
    'attribute',
  ],
  'src/trace': [
    'detect',
    'judge',
    'report',
    'tiers',
    'session',
    'baseline',
    'config',
    'cli',
    'action',
    'diff',
    'embed',
    'run',
    'trajectory',
    'attribute',
  ],
  'src/detect': [
    'judge',
    'report',
    'tiers',
    'session',
    'config',
    'cli',
    'action',
    'diff',
    'embed',
    'run',
    'trajectory',
    'attribute',
  ],
  'src/judge': [
    'detect',
    'report',
    'tiers',
    'session',
    'baseline',
    'config',
    'cli',
    'action',
    'diff',
    'embed',
    'run',
    'trajectory',
    'attribute',
  ],
  // A stage beside detect/: it reads traces (trace/, util/) and redacts what its failure messages
  // quote (redact/), nothing else.
  'src/trajectory': [
    'detect',
    'judge',
    'report',
    'tiers',
    'session',
    'baseline',
    'config',
    'cli',
    'action',
    'pricing',
    'diff',
    'embed',
    'run',
    'attribute',
  ],
  // Tier 3's embedders: util/, redact/ and trace/ (types only, see below) and nothing else.
  'src/embed': [
    'detect',
    'judge',
    'report',
    'tiers',
    'session',
    'baseline',
    'config',
    'cli',
    'action',
    'pricing',
    'diff',
    'trajectory',
    'run',
    'attribute',
  ],
  'src/tiers': ['report', 'session', 'config', 'cli', 'action', 'diff', 'run', 'attribute'],
  // Failure attribution, a stage after escalation: it reads traces and the signals detection left
  // (trace/, detect/), asks judges in the gray zone (judge/), redacts what it quotes; no stage above.
  'src/attribute': [
    'report',
    'session',
    'config',
    'cli',
    'action',
    'diff',
    'run',
    'tiers',
    'embed',
    'baseline',
    'pricing',
    'trajectory',
  ],
  'src/session': ['report', 'config', 'cli', 'action', 'diff', 'run', 'attribute'],
  'src/report': ['config', 'cli', 'action', 'diff', 'run'],
  // diff/ compares two finished reports: it reads report/ (and detect/'s signal types), util/ and
  // redact/, never the stages that produce a report nor the run's configuration.
  'src/diff': [
    'trace',
    'judge',
    'tiers',
    'session',
    'baseline',
    'pricing',
    'embed',
    'trajectory',
    'config',
    'cli',
    'action',
    'run',
    'attribute',
  ],
  'src/config': ['cli', 'action', 'run'],
  // The two front doors beside each other: neither imports the other (the Action reads reports
  // through report/ and diff/, not by running the CLI).
  'src/cli': ['action'],
  'src/action': ['cli'],

  // vitest-plugin/ runs in two kinds of process: Vitest's main process (main/: the plugin and its
  // options; reporter/) and each test worker (worker/, matchers/, capture/, receiver/). Code of one
  // is never loaded in the other: a worker module that imported main/ would pull the plugin (and
  // tracejury.yml reading) into every test file, and main-process code that imported worker/ would
  // load Vitest's runtime where it does not exist. What crosses between them is plain JSON, declared
  // in shared/ (the settings workers get, the meta tests leave for the reporter), which imports no
  // other folder. The entry points at the root (index.ts, matchers.ts, setup.ts, types.ts) wire the
  // folders together, so no folder imports them.
  'vitest-plugin/shared': ['main', 'reporter', 'worker', 'matchers', 'capture', 'receiver'],
  'vitest-plugin/main': ['worker', 'matchers', 'capture', 'receiver'],
  'vitest-plugin/reporter': ['main', 'worker', 'matchers', 'capture', 'receiver'],
  // What every worker-side part shares (settings, analyser, running test): below the parts.
  'vitest-plugin/worker': ['main', 'reporter', 'matchers', 'capture', 'receiver'],
  // The three parts beside each other: each brings traces to tests or judges them on its own.
  'vitest-plugin/matchers': ['main', 'reporter', 'capture', 'receiver'],
  'vitest-plugin/capture': ['main', 'reporter', 'matchers', 'receiver'],
  'vitest-plugin/receiver': ['main', 'reporter', 'matchers', 'capture'],
};

/** vitest-plugin/ is a face of the package, as the CLI is: it reaches the library only as 'tracejury'. */
const PLUGIN_USES_PUBLIC_API = {
  group: ['**/src/*', '**/src/**', '**/build/*', '**/build/**'],
  message: "vitest-plugin/ imports the library as 'tracejury' (its public API), not from src/ or build/.",
};

/**
 * The HTML viewer (report-ui/) is its own app: src/ reaches it only as the built, inlined asset
 * (src/report/html/viewer.generated.ts, written by `npm run build`), never by importing its source.
 */
const SRC_NEVER_IMPORTS_VIEWER = {
  group: ['**/report-ui/*', '**/report-ui/**'],
  message:
    'src/ must not import report-ui/: the renderer inlines the built viewer (viewer.generated.ts, from npm run build), see ARCHITECTURE.md.',
};

/** A folder of vitest-plugin/ never imports the entry points that wire the folders together. */
const PLUGIN_ENTRY_POINTS = {
  regex: '^\\.\\./(index|matchers|setup)(\\.js)?$',
  message:
    'a folder of vitest-plugin/ must not import its entry points (index, matchers, setup): they import the folders (see ARCHITECTURE.md, Layers).',
};

function layerRules() {
  return Object.entries(LAYERS).map(([folder, forbidden]) => ({
    files: [`${folder}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...forbidden.map((f) => ({
              group: [`**/${f}/*`, `**/${f}/**`],
              message: `${folder}/ must not import ${f}/: imports run down the data flow (see ARCHITECTURE.md, Layers; eslint.config.js LAYERS).`,
            })),
            // One rule per file in flat config: a later block would replace these patterns, so
            // the plugin's folders carry the plugin-wide ones too.
            ...(folder.startsWith('vitest-plugin/') ? [PLUGIN_USES_PUBLIC_API, PLUGIN_ENTRY_POINTS] : []),
            ...(folder.startsWith('src/') ? [SRC_NEVER_IMPORTS_VIEWER] : []),
          ],
        },
      ],
    },
  }));
}

export default tseslint.config(
  {
    ignores: [
      'build/**',
      'dist/**',
      'node_modules/**',
      'test/fixtures/generate/node_modules/**',
      'coverage/**',
      '.tracejury/**',
      // What the benches generate and keep (inputs, reports, profiles, copies of builds).
      'bench/out/**',
      'src/report/html/viewer.generated.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { languageOptions: { globals: { ...globals.node } } },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-control-regex': 'off',
    },
  },
  {
    // The plugin is a face of the package, like the CLI is to users: it reaches the library only
    // through the package's public entry ("tracejury"), never into src/. (Its folders get this
    // pattern with their layer rules below; this block covers the entry points at its root.)
    files: ['vitest-plugin/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [PLUGIN_USES_PUBLIC_API] }] },
  },
  {
    // The files at the root of src/ (and folders with no layer rule) keep away from the viewer too.
    files: ['src/*.ts', 'src/baseline/**/*.ts', 'src/pricing/**/*.ts', 'src/run/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [SRC_NEVER_IMPORTS_VIEWER] }] },
  },
  ...layerRules(),
  {
    // The viewer runs in the reader's browser, on data from traces. Data is text, never markup: no
    // HTML-parsing sinks at all (Preact renders text nodes). It runs offline in every browser a
    // downloaded report is opened in, so no API newer than Safari 15. From the library it bundles
    // only pure modules (the anchor format, number formats, the page contract's constants); the
    // rest of src/ it may import as types only.
    files: ['report-ui/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-properties': [
        'error',
        ...['innerHTML', 'outerHTML', 'insertAdjacentHTML', 'srcdoc'].map((property) => ({
          property,
          message: 'trace data is text: render it as text nodes (Preact children), never as HTML',
        })),
        ...['write', 'writeln'].map((property) => ({
          object: 'document',
          property,
          message: 'never write markup',
        })),
        ...['at', 'findLast', 'findLastIndex', 'toSorted', 'toReversed', 'toSpliced', 'hasOwn'].map(
          (property) => ({
            property,
            message: 'newer than Safari 15, which a downloaded report may be opened in',
          }),
        ),
      ],
      'no-restricted-globals': ['error', { name: 'structuredClone', message: 'newer than Safari 15' }],
      'no-restricted-syntax': [
        'error',
        {
          selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']",
          message: 'trace data is text: render it as text nodes, never as HTML',
        },
        {
          selector:
            "CallExpression[callee.property.name='setAttribute'][arguments.0.value=/^(on|href$|src$|style$)/i]",
          message: 'no event handler, link or style attribute from code: use JSX props (text only)',
        },
        { selector: "NewExpression[callee.name='Function']", message: 'no code from strings' },
      ],
      'no-implied-eval': 'error',
      'no-eval': 'error',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex:
                '/src/(?!report/html/(anchor|pageData)\\.js$|report/verdictText\\.js$|util/(usd|thousands|steps)\\.js$)',
              allowTypeImports: true,
              message:
                'report-ui/ bundles only pure modules of src/ (anchor, pageData, verdictText, util/usd, thousands, steps); import anything else as a type',
            },
          ],
        },
      ],
    },
  },
  {
    // embed/ sees traces only as types: it embeds text, it never loads or parses.
    files: ['src/embed/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/trace/*', '**/trace/**'],
              allowTypeImports: true,
              message:
                'src/embed/ may import trace/ types only (import type …): see ARCHITECTURE.md, Layers.',
            },
          ],
        },
      ],
    },
  },
);
