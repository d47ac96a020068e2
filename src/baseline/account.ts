/**
 * Which baseline each baseline detector used, per agent version of a run: the store, the base
 * branch's report, the good runs of the input, or its static fallback when none of them held
 * `minRuns` runs that measured the detector's metric. The same rule the run's lookups apply
 * (store first, then the base report, then the input), so the account says what was done. Pure.
 */
import type { BaselineMetric, BaselineSource } from '../detect/detector.js';
import type { BaselineUse } from '../report/schema.js';
import { agentKey, baselineValues, type BaselineFile } from './store.js';
import { dict } from '../util/dict.js';

export interface BaselineFiles {
  store: BaselineFile;
  baseReport?: BaselineFile;
  input?: BaselineFile;
}

export interface AgentSeen {
  agentId: string;
  agentVersion?: string;
  traces: number;
}

export function baselineAccount(
  agents: Iterable<AgentSeen>,
  detectorsOf: (agentId: string) => readonly { detector: string; metric: BaselineMetric }[],
  files: BaselineFiles,
  { minRuns, window }: { minRuns: number; window: number },
): BaselineUse[] {
  const sources: [BaselineSource, BaselineFile | undefined][] = [
    ['store', files.store],
    ['base-report', files.baseReport],
    ['input', files.input],
  ];
  const out: BaselineUse[] = [];
  for (const a of agents) {
    const key = agentKey(a.agentId, a.agentVersion);
    const detectors: BaselineUse['detectors'] = dict();
    for (const { detector, metric } of detectorsOf(a.agentId)) {
      let most = 0;
      let used: BaselineUse['detectors'][string] | undefined;
      for (const [source, file] of sources) {
        if (!file) continue;
        const runs = baselineValues(file, key, metric, window).length;
        if (runs >= minRuns) {
          used = { source, runs };
          break;
        }
        most = Math.max(most, runs);
      }
      detectors[detector] = used ?? { source: 'static', runs: most };
    }
    if (Object.keys(detectors).length > 0) out.push({ agent: key, traces: a.traces, detectors });
  }
  return out.sort((x, y) => (x.agent < y.agent ? -1 : x.agent > y.agent ? 1 : 0));
}
