/**
 * The layering of the data flow (ARCHITECTURE.md, Layers) is an ESLint rule (eslint.config.js,
 * LAYERS). These tests prove the rule bites: a deliberate bad import in each folder is an error, a
 * good one is not, and the source tree as it stands has no layering fault.
 */
import { ESLint } from 'eslint';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
const eslint = new ESLint({ cwd: root });

async function layeringErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('layering rule', () => {
  const faults: [file: string, importPath: string, forbidden: string][] = [
    ['src/trace/formats/x.ts', '../../detect/registry.js', 'detect'],
    ['src/trace/load.ts', '../judge/verdict.js', 'judge'],
    ['src/trace/load.ts', '../report/schema.js', 'report'],
    ['src/detect/detectors/structural/x.ts', '../../../report/redact.js', 'report'],
    ['src/detect/config.ts', '../judge/config.js', 'judge'],
    ['src/judge/judgeCall.ts', '../detect/signal.js', 'detect'],
    ['src/judge/judgeCall.ts', '../report/schema.js', 'report'],
    ['src/report/build.ts', '../cli/main.js', 'cli'],
    ['src/detect/runner.ts', '../config/config.js', 'config'],
    ['src/diff/diffReports.ts', '../config/config.js', 'config'],
    ['src/diff/diffReports.ts', '../cli/main.js', 'cli'],
    ['src/diff/noise.ts', '../judge/tribunal.js', 'judge'],
    ['src/diff/match.ts', '../trace/load.js', 'trace'],
    ['src/embed/cache.ts', '../tiers/embeddings.js', 'tiers'],
    ['src/embed/openaiEmbedder.ts', '../judge/providers.js', 'judge'],
    ['src/embed/openaiEmbedder.ts', '../pricing/pricer.js', 'pricing'],
    ['src/report/renderMarkdown.ts', '../action/comment.js', 'action'],
    ['src/diff/renderMarkdown.ts', '../action/commentBody.js', 'action'],
    ['src/action/run.ts', '../cli/main.js', 'cli'],
    ['src/cli/main.ts', '../action/run.js', 'action'],
    ['src/cli/commands/analyze.ts', '../../action/run.js', 'action'],
    ['src/trace/load.ts', '../trajectory/matchTrajectory.js', 'trajectory'],
    // vitest-plugin/: capture and receiver never reach the matchers or the reporter, and code of
    // the main process and of the workers never imports the other's.
    ['vitest-plugin/capture/capture.ts', '../matchers/signals.js', 'matchers'],
    ['vitest-plugin/capture/capture.ts', '../reporter/reporter.js', 'reporter'],
    ['vitest-plugin/capture/capture.ts', '../receiver/receiver.js', 'receiver'],
    ['vitest-plugin/receiver/receiver.ts', '../matchers/tribunal.js', 'matchers'],
    ['vitest-plugin/receiver/traceAssembler.ts', '../reporter/reporter.js', 'reporter'],
    ['vitest-plugin/worker/context.ts', '../main/options.js', 'main'],
    ['vitest-plugin/worker/loadTraces.ts', '../reporter/reporter.js', 'reporter'],
    ['vitest-plugin/matchers/signals.ts', '../main/plugin.js', 'main'],
    ['vitest-plugin/main/plugin.ts', '../worker/context.js', 'worker'],
    ['vitest-plugin/main/plugin.ts', '../matchers/signals.js', 'matchers'],
    ['vitest-plugin/reporter/reporter.ts', '../worker/currentTask.js', 'worker'],
    ['vitest-plugin/shared/meta.ts', '../worker/context.js', 'worker'],
  ];
  it.each(faults)('%s importing %s is an error', async (file, importPath, forbidden) => {
    const errors = await layeringErrors(file, `import { x } from '${importPath}';\nexport const y = x;\n`);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(`must not import ${forbidden}/`);
  });

  it('lets embed/ import trace/ types but not values, and tiers/ import embed/', async () => {
    const [typed] = await eslint.lintText(
      "import type { Trace } from '../trace/schema.js';\nexport type T = Trace;\n",
      {
        filePath: path.join(root, 'src/embed/x.ts'),
      },
    );
    expect(typed!.messages.filter((m) => /restricted-imports/.test(m.ruleId ?? ''))).toEqual([]);
    const [value] = await eslint.lintText(
      "import { TraceSchema } from '../trace/schema.js';\nexport const T = TraceSchema;\n",
      { filePath: path.join(root, 'src/embed/x.ts') },
    );
    expect(value!.messages.map((m) => m.message)).toEqual([expect.stringContaining('trace/ types only')]);
    expect(
      await layeringErrors(
        'src/tiers/x.ts',
        "import { x } from '../embed/embedder.js';\nexport const y = x;\n",
      ),
    ).toEqual([]);
  });

  it('allows imports that run down the data flow', async () => {
    expect(
      await layeringErrors(
        'src/report/build.ts',
        "import { x } from '../detect/signal.js';\nexport const y = x;\n",
      ),
    ).toEqual([]);
    expect(
      await layeringErrors('src/detect/runner.ts', "import { x } from './config.js';\nexport const y = x;\n"),
    ).toEqual([]);
    expect(
      await layeringErrors(
        'src/trace/load.ts',
        "import { x } from '../redact/redact.js';\nexport const y = x;\n",
      ),
    ).toEqual([]);
  });

  it("keeps vitest-plugin/'s folders off src/ and off the plugin's entry points", async () => {
    const intoSrc = await layeringErrors(
      'vitest-plugin/worker/context.ts',
      "import { x } from '../../src/analyze.js';\nexport const y = x;\n",
    );
    expect(intoSrc).toEqual([expect.stringContaining("imports the library as 'tracejury'")]);
    const rootIntoSrc = await layeringErrors(
      'vitest-plugin/index.ts',
      "import { x } from '../src/analyze.js';\nexport const y = x;\n",
    );
    expect(rootIntoSrc).toEqual([expect.stringContaining("imports the library as 'tracejury'")]);
    for (const entry of ['../index.js', '../matchers.js', '../setup.js']) {
      const errors = await layeringErrors(
        'vitest-plugin/capture/capture.ts',
        `import { x } from '${entry}';\nexport const y = x;\n`,
      );
      expect(errors).toEqual([expect.stringContaining('must not import its entry points')]);
    }
  });

  it("allows vitest-plugin/'s imports that the layers allow", async () => {
    for (const [file, importPath] of [
      ['vitest-plugin/capture/capture.ts', '../worker/context.js'],
      ['vitest-plugin/receiver/traceAssembler.ts', '../worker/context.js'],
      ['vitest-plugin/matchers/signals.ts', '../worker/received.js'],
      ['vitest-plugin/matchers/signals.ts', '../types.js'],
      ['vitest-plugin/main/plugin.ts', '../reporter/reporter.js'],
      ['vitest-plugin/main/plugin.ts', '../shared/workerSettings.js'],
      ['vitest-plugin/reporter/reporter.ts', '../shared/meta.js'],
      ['vitest-plugin/worker/context.ts', '../shared/workerSettings.js'],
      ['vitest-plugin/setup.ts', './matchers.js'],
    ] as const) {
      expect(await layeringErrors(file, `import { x } from '${importPath}';\nexport const y = x;\n`)).toEqual(
        [],
      );
    }
  });

  it('finds no layering fault in src/ or vitest-plugin/', async () => {
    const results = await eslint.lintFiles(['src/**/*.ts', 'vitest-plugin/**/*.ts']);
    const faults = results.flatMap((r) =>
      r.messages
        .filter((m) => m.ruleId === 'no-restricted-imports')
        .map((m) => `${path.relative(root, r.filePath)}:${m.line}: ${m.message}`),
    );
    expect(faults).toEqual([]);
  }, 60_000);
});
