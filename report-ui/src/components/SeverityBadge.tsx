/** A severity or status as a coloured word. */
export function SeverityBadge({ severity }: { severity: string }) {
  return <span class={`badge sev-${severity}`}>{severity}</span>;
}

export function StatusBadge({ status }: { status: string }) {
  return <span class={`badge status-${status}`}>{status}</span>;
}

/** A signal's badges: its severity, and its status when it is not a finding (review, dismissed …). */
export function SignalBadges({ severity, status }: { severity: string; status: string }) {
  return (
    <>
      <SeverityBadge severity={severity} />
      {status !== 'finding' && <StatusBadge status={status} />}
    </>
  );
}
