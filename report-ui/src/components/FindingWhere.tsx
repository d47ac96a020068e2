/** Where a finding is, under its message: the trace, its file and line, the test, the agent. */
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
      <span class="trace-id" data-testid="finding-trace">
        {traceId}
      </span>
      {file !== undefined && <span class="file"> · {fileLine(file, line)}</span>}
      {test !== undefined && <span class="test"> · {test}</span>}
      {agent !== undefined && <span class="agent"> · agent {agent}</span>}
    </span>
  );
}
