/** Where a finding is, under its message: its test (in a Vitest run) or its trace, file and line; the agent. */
import { fileLine } from '../model/format.js';

export function FindingWhere(props: {
  traceId: string;
  file?: string | undefined;
  line?: number | undefined;
  test?: string | undefined;
  agent?: string | undefined;
}) {
  const { traceId, file, line, test, agent } = props;
  return (
    <span class="row-where">
      {/* A trace of a Vitest run is named by its test (its file is then only the capture's label). */}
      {test !== undefined ? (
        <span class="test" data-testid="finding-trace">
          {test}
        </span>
      ) : (
        <span class="trace-id" data-testid="finding-trace">
          {traceId}
        </span>
      )}
      {test === undefined && file !== undefined && <span class="file"> · {fileLine(file, line)}</span>}
      {agent !== undefined && <span class="agent"> · agent {agent}</span>}
    </span>
  );
}
