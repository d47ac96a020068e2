/**
 * docs/detectors.md and docs/configuration.md are generated (scripts/write-docs.mjs) from their
 * templates in docs/templates/ and from the code: the detectors' meta and settings, and the
 * tracejury.yml schema. The committed pages must be what the code renders now, so a new setting,
 * a changed default or a new detector cannot ship undocumented.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/config.js';
import { CONFIGURATION_TEMPLATE, configurationPage } from '../../src/config/docs.js';
import { DETECTORS_TEMPLATE, detectorsPage } from '../../src/detect/docs.js';
import { detectors } from '../../src/detect/registry.js';

const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const REGENERATE = 'out of date: run `npm run build && node scripts/write-docs.mjs` and commit it';

describe('generated reference pages', () => {
  it(`docs/detectors.md is the page rendered from ${DETECTORS_TEMPLATE} and the registry`, () => {
    expect(read('docs/detectors.md'), `docs/detectors.md is ${REGENERATE}`).toBe(
      detectorsPage(read(DETECTORS_TEMPLATE)),
    );
  });

  it(`docs/configuration.md is the page rendered from ${CONFIGURATION_TEMPLATE} and the config schema`, () => {
    expect(read('docs/configuration.md'), `docs/configuration.md is ${REGENERATE}`).toBe(
      configurationPage(read(CONFIGURATION_TEMPLATE)),
    );
  });

  it('gives every built-in detector one summary row and one section, ids and config keys unique', () => {
    const page = read('docs/detectors.md');
    for (const d of detectors) {
      const { id, configKey, tier, kind } = d.meta;
      const row = `| [\`${id}\`](#${id.toLowerCase()}) | ${tier} | ${kind} |`;
      expect(page.split(row).length - 1, `${id} summary rows`).toBe(1);
      expect(page.split(`\n### \`${id}\`\n`).length - 1, `${id} sections`).toBe(1);
      expect(page, id).toContain(`config key \`${configKey}\``);
      expect(d.meta.rule, `${id} has no meta.rule to document`).toMatch(/\S/);
      expect(page, id).toContain(d.meta.rule);
    }
    expect(new Set(detectors.map((d) => d.meta.id)).size).toBe(detectors.length);
    expect(new Set(detectors.map((d) => d.meta.configKey)).size).toBe(detectors.length);
  });

  it("lists each detector's settings with their defaults, and the order of who charges waste", () => {
    const page = read('docs/detectors.md');
    expect(page).toContain('- `threshold` — integer ≥ 2, default `3`.');
    expect(page).toContain('- `max_cost_usd` — number > 0, default `1`.');
    const order = page.slice(page.indexOf('## Who charges a wasted LLM call'));
    expect(order).toMatch(/\| 1 \| \[`RETRY_LOOP`\]\(#retry_loop\) \| waste \|/);
    expect(order.indexOf('`LLM_TRUNCATION_LOOP`')).toBeLessThan(order.indexOf('`OVERKILL_MODEL`'));
  });

  it('documents every top-level key of tracejury.yml in a section of its own', () => {
    const page = read('docs/configuration.md');
    for (const key of Object.keys(configSchema().shape).filter((k) => k !== 'default')) {
      expect(page, key).toContain(`\n## \`${key}\`\n`);
    }
    expect(page).toContain('\n## Agent sections\n');
    expect(page).toContain('- `minRuns` — integer ≥ 1, default `20`.');
  });
});
