import { describe, expect, it } from 'vitest';
import { captureTrace } from '../../vitest-plugin/capture.js';
import { runSupportAgent } from '../helpers/aiSdk5Agent.js';
import { expectRun } from '../helpers/realLibraryRun.js';

describe('captureTrace', () => {
  it('AI SDK 5', async () => {
    const trace = await captureTrace(() => runSupportAgent());
    console.log(JSON.stringify(trace, null, 1).slice(0, 3000));
    expectRun(trace);
  });
});
