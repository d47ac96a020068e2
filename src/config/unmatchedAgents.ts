/**
 * Agent sections that no trace of the run belongs to. `order-suport:` in tracejury.yml is read as
 * the settings of an agent called "order-suport"; no trace has that id, so its thresholds silently
 * never apply. After a run, each such section gets a note naming the nearest agent ids seen.
 */
import { nearest } from '../util/nearest.js';
import type { Config } from './config.js';

/** How many of the agent ids seen a note lists when none is near. */
const LISTED_AGENTS = 5;

export function unmatchedAgentSections(
  config: Pick<Config, 'sections' | 'sectionLines' | 'file'>,
  agentIdsSeen: Iterable<string>,
): string[] {
  const seen = [...new Set(agentIdsSeen)].sort();
  // A run that saw no trace says nothing about which agents exist.
  if (seen.length === 0) return [];
  const notes: string[] = [];
  for (const section of Object.keys(config.sections)) {
    if (section === 'default' || seen.includes(section)) continue;
    const line = config.sectionLines?.[section];
    const where = `${config.file ?? 'config'}${line ? `:${line}` : ''}`;
    const hint = nearest(section, seen);
    const listed = seen.slice(0, LISTED_AGENTS).map((a) => `"${a}"`);
    const others =
      seen.length > LISTED_AGENTS
        ? `${listed.join(', ')} and ${seen.length - LISTED_AGENTS} more`
        : listed.join(', ');
    notes.push(
      `${where}: section "${section}" matches no agent of this run, so its settings were not used` +
        (hint ? ` — did you mean "${hint}"?` : ` (agents seen: ${others})`),
    );
  }
  return notes;
}
