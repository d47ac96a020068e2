import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The layers of DESIGN.md's data flow: a folder may import only what sits below it. `forbidden`
 * lists, per folder, the folders it must never import; redact/ and util/ sit below every stage.
 * test/architecture/layers.test.ts checks that these rules catch a bad import.
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
  ],
  'src/detect': ['judge', 'report', 'tiers', 'session', 'config', 'cli', 'action', 'diff', 'embed', 'run'],
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
  ],
  'src/tiers': ['report', 'session', 'config', 'cli', 'action', 'diff', 'run'],
  'src/session': ['report', 'config', 'cli', 'action', 'diff', 'run'],
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
  ],
  'src/config': ['cli', 'action', 'run'],
  // The two front doors beside each other: neither imports the other (the Action reads reports
  // through report/ and diff/, not by running the CLI).
  'src/cli': ['action'],
  'src/action': ['cli'],
};

function layerRules() {
  return Object.entries(LAYERS).map(([folder, forbidden]) => ({
    files: [`${folder}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: forbidden.map((f) => ({
            group: [`**/${f}/*`, `**/${f}/**`],
            message: `${folder}/ must not import ${f}/: imports run down DESIGN.md's data flow (see eslint.config.js LAYERS).`,
          })),
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
  ...layerRules(),
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
                'src/embed/ may import trace/ types only (import type …): see eslint.config.js LAYERS.',
            },
          ],
        },
      ],
    },
  },
  {
    // The plugin is a face of the package, like the CLI is to users: it reaches the library only
    // through the package's public entry ("tracejury"), never into src/.
    files: ['vitest-plugin/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/src/*', '**/src/**', '**/build/*', '**/build/**'],
              message:
                "vitest-plugin/ imports the library as 'tracejury' (its public API), not from src/ or build/.",
            },
          ],
        },
      ],
    },
  },
);
