/**
 * An agent that runs in another process: the test starts an OTLP/HTTP receiver on loopback, gives
 * the agent process the receiver's environment, and asserts on the trace its spans describe.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { startTraceReceiver } from 'tracejury/vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));

// Starting a Node process takes seconds on a busy CI machine: more than Vitest's default 5 s.
test('the agent in its own process, traced over OTLP', { timeout: 60_000 }, async () => {
  const receiver = await startTraceReceiver();
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', 'agent-process.ts', 'Where is order 4412?'],
    {
      cwd: root,
      env: { ...process.env, ...receiver.env },
    },
  );

  const trace = await receiver.waitForTrace((t) => t.agentId === 'order-support');
  expect(stdout).toContain('Leipzig');
  expect(trace).toHaveNoSignals();
  expect(trace).toMatchTrajectory([{ name: 'lookup_order' }, { name: 'track_shipment' }], { mode: 'strict' });
  await receiver.close();
});
