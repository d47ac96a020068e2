/** Tier 3's semantic checks at their thresholds: each side of every boundary, and the undecided middle. */
import { describe, expect, it } from 'vitest';
import { cosine } from '../../src/embed/embedder.js';
import {
  grounding,
  requestFollowed,
  roleDrift,
  semanticLoop,
  taskVsOutput,
} from '../../src/tiers/semanticChecks.js';

/** A unit vector at angle θ from [1, 0]. */
const at = (theta: number) => [Math.cos(theta), Math.sin(theta)];
const base = [1, 0];
const v = at(0.5);
const c = cosine(base, v); // ≈ 0.8776

describe('semantic loop', () => {
  it('needs two steps', () => {
    expect(semanticLoop([base])).toBeUndefined();
  });
  it('is a loop when every consecutive cosine is at or above the threshold', () => {
    expect(semanticLoop([base, v, base], { threshold: c })).toMatchObject({
      check: 'semantic-loop',
      adjustment: 0.25,
    });
    expect(semanticLoop([base, v], { threshold: c + 1e-9, distinct: 0.1 })).toMatchObject({ adjustment: 0 });
  });
  it('one distinct pair breaks the loop', () => {
    expect(semanticLoop([base, base, at(Math.PI / 2)], { threshold: 0.9, distinct: 0.5 })!.adjustment).toBe(
      0,
    );
  });
  it('speaks against the loop when every cosine is below distinct', () => {
    expect(semanticLoop([base, v], { threshold: 0.99, distinct: c + 1e-9 })).toMatchObject({
      adjustment: -0.25,
    });
    expect(semanticLoop([base, v], { threshold: 0.99, distinct: c })).toMatchObject({ adjustment: 0 });
    expect(semanticLoop([base, at(Math.PI / 2)])!.evidence).toMatch(
      /ask different things \(max cosine 0\.00 < 0\.40\)/,
    );
  });
});

describe('task vs output', () => {
  it('far below `far`, near at or above `near`, undecided between', () => {
    expect(taskVsOutput(base, v, { far: c + 1e-9, near: 0.95 })).toMatchObject({
      check: 'task-vs-output',
      adjustment: 0.25,
    });
    expect(taskVsOutput(base, v, { far: c, near: 0.95 })).toMatchObject({ adjustment: 0 });
    expect(taskVsOutput(base, v, { far: 0.1, near: c })).toMatchObject({ adjustment: -0.25 });
    expect(taskVsOutput(base, at(Math.PI / 2)).evidence).toMatch(/far from the task/);
  });
});

describe('grounding', () => {
  it('is undefined without documents and takes the best document', () => {
    expect(grounding(base, [])).toBeUndefined();
    expect(grounding(base, [at(Math.PI / 2), v], { grounded: c })).toMatchObject({
      adjustment: -0.25,
      similarity: c,
    });
    expect(grounding(base, [v], { grounded: c + 1e-9, ungrounded: 0.1 })).toMatchObject({ adjustment: 0 });
    expect(grounding(base, [v], { grounded: 0.99, ungrounded: c + 1e-9 })).toMatchObject({
      adjustment: 0.25,
    });
  });
});

describe('role drift', () => {
  it('compares the mean output cosine with the role', () => {
    expect(roleDrift(base, [])).toBeUndefined();
    expect(roleDrift(base, [v, v], { aligned: c })).toMatchObject({ check: 'role-drift', adjustment: -0.25 });
    expect(roleDrift(base, [v, v], { drift: c + 1e-9, aligned: 0.99 })).toMatchObject({ adjustment: 0.25 });
    expect(roleDrift(base, [v, at(Math.PI / 2)], { drift: 0.1, aligned: 0.9 })).toMatchObject({
      adjustment: 0,
    });
  });
});

describe('request followed', () => {
  it('confirms a request to the reader when an output after it is at or above the threshold, never lowers it', () => {
    expect(requestFollowed(base, [])).toBeUndefined();
    expect(requestFollowed(base, [at(1.5), v], { followed: c })).toMatchObject({
      check: 'request-followed',
      adjustment: 0.25,
      similarity: c,
    });
    // An output that does not follow it: an agent that resisted was still attacked.
    expect(requestFollowed(base, [v], { followed: c + 1e-9 })).toMatchObject({ adjustment: 0 });
    expect(requestFollowed(base, [at(Math.PI)])).toMatchObject({ adjustment: 0 });
  });
});

describe('which gray-zone cases tier 3 checks', () => {
  it('names only failure modes that built-in detectors have, so no check is dead', async () => {
    const { SEMANTIC_CHECKS_BY_FAILURE_MODE } = await import('../../src/tiers/embeddings.js');
    const { detectors } = await import('../../src/detect/registry.js');
    const modes = new Set(detectors.map((d) => d.meta.failureMode));
    for (const mode of Object.keys(SEMANTIC_CHECKS_BY_FAILURE_MODE)) expect(modes.has(mode), mode).toBe(true);
  });
});
