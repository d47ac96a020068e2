/** A severity or status as a coloured word. */
export function SeverityBadge({ severity }: { severity: string }) {
  return <span class={`badge sev-${severity}`}>{severity}</span>;
}

export function StatusBadge({ status }: { status: string }) {
  return <span class={`badge status-${status}`}>{status}</span>;
}
