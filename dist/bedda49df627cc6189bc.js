/**
 * A worker thread of analyze() with `--jobs N`: loads its shard of the input (every file is read,
 * only the shard's traces are parsed and imported), runs the detectors over each trace and sends
 * the results to the main thread in the canonical trace order. Escalation, the report and
 * everything else that must see all traces stay on the main thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { knownBaselines } from '../baseline/store.js';
import { createDetectorRunner } from '../detect/runner.js';
import { createPricer } from '../pricing/pricer.js';
import { streamTraceBatches } from '../trace/load.js';
import { resultOrInputError } from './analyseTrace.js';
import { traceResult } from './traceResult.js';
const port = parentPort;
const input = workerData;
/** Result messages this worker may still send before it waits for the main thread to catch up. */
let credit = 0;
let wake;
port.on('message', (m) => {
    credit += m.messages;
    wake?.();
    wake = undefined;
});
async function send(message) {
    if (message.type === 'results') {
        while (credit <= 0)
            await new Promise((resolve) => (wake = resolve));
        credit--;
    }
    port.postMessage(message);
}
async function main() {
    const { config } = input;
    const pricer = createPricer(config.prices);
    const runner = createDetectorRunner({
        config,
        pricer,
        baselines: knownBaselines(input.baselines, input.baseReportBaselines, config.baselines),
        deferMissingBaselines: input.deferMissingBaselines,
    });
    const { batches, stats } = streamTraceBatches(input.paths, {
        inputFormat: input.inputFormat,
        pricer,
        cwd: input.cwd,
        ...(input.within !== undefined ? { within: input.within } : {}),
        ...(input.agent !== undefined ? { agent: input.agent } : {}),
        ...(input.taskKey !== undefined ? { taskKey: input.taskKey } : {}),
        shard: input.shard,
        onProgress: (p) => port.postMessage({
            type: 'progress',
            bytesRead: p.bytesRead,
            traces: p.traces,
            filesDone: p.filesDone,
            file: p.file,
        }),
    });
    for await (const batch of batches) {
        if (batch.length === 0)
            continue;
        const results = batch.flatMap((loaded) => resultOrInputError(loaded, stats, () => traceResult(loaded, loaded.source.order, runner, { grayZoneTrace: input.keepGrayZoneTraces }, input.attribution)));
        await send({ type: 'results', results });
    }
    await send({
        type: 'done',
        stats,
        unknownModels: [...pricer.unknownModels()],
        failures: runner.failures,
    });
}
// The main thread terminates the worker once it has read 'done' or 'failed'.
main().catch((err) => {
    port.postMessage({
        type: 'failed',
        message: err instanceof Error ? (err.stack ?? err.message) : String(err),
    });
});
