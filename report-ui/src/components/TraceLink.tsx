/** A link to a trace's timeline (the same address the PR comment links to). */
import type { ComponentChildren } from 'preact';
import { routeHash } from '../model/route.js';

export function TraceLink(props: {
  traceId: string;
  file?: string | undefined;
  detector?: string | undefined;
  step?: number | undefined;
  children?: ComponentChildren;
}) {
  const { traceId, file, detector, step } = props;
  return (
    <a class="trace-link" href={routeHash({ view: 'trace', traceId, file, detector, step })}>
      {props.children ?? traceId}
    </a>
  );
}
