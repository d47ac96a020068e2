/** src/trajectory is a stage beside detect/: the layering rule lets it read trace/ and util/ only. */
import { ESLint } from 'eslint';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
const eslint = new ESLint({ cwd: root });

async function layeringErrors(importPath: string): Promise<string[]> {
  const code = `import { x } from '${importPath}';\nexport const y = x;\n`;
  const [result] = await eslint.lintText(code, {
    filePath: path.join(root, 'src/trajectory/matchTrajectory.ts'),
  });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('src/trajectory layering', () => {
  it.each(['detect/signal.js', 'report/schema.js', 'judge/verdict.js'])(
    'may not import %s',
    async (target) => {
      const errors = await layeringErrors(`../${target}`);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toContain(`must not import ${target.split('/')[0]}/`);
    },
  );

  it('may import trace/ and util/', async () => {
    expect(await layeringErrors('../trace/schema.js')).toEqual([]);
    expect(await layeringErrors('../util/nearest.js')).toEqual([]);
  });
});
