/** Session scores that changed between base and head (unchanged ones are counted, not listed). */
import type { DiffPage } from '../model/page.js';

type SessionDiff = DiffPage['diff']['sessions'][number];

const score = (x: number | null) => (x === null ? '–' : x.toFixed(3));

export function SessionChanges({ sessions }: { sessions: readonly SessionDiff[] }) {
  const changed = sessions.filter((s) => s.delta !== 0);
  return (
    <section aria-label="Session changes">
      <p class="muted">{sessions.length - changed.length} unchanged session scores are not listed.</p>
      <table class="table">
        <thead>
          <tr>
            <th>Session</th>
            <th>Score</th>
            <th class="num">Base → head</th>
            <th class="num">Change</th>
          </tr>
        </thead>
        <tbody>
          {changed.map((s, i) => (
            <tr key={i} class={s.headPassed === false ? 'row-bad' : ''}>
              <td class="mono">{s.test ?? s.sessionId}</td>
              <td>{s.metric}</td>
              <td class="num">
                {score(s.base)} → {score(s.head)}
              </td>
              <td class="num">{s.delta === null ? '–' : `${s.delta > 0 ? '+' : ''}${s.delta.toFixed(3)}`}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
