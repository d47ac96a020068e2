/** A long list shown a page at a time: a run may have thousands of rows. */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

export const PAGE_ROWS = 200;

export function ShowMore<T>(props: {
  items: readonly T[];
  render: (item: T) => ComponentChildren;
  what: string;
  step?: number;
}) {
  const step = props.step ?? PAGE_ROWS;
  const [shown, setShown] = useState(step);
  const rest = props.items.length - shown;
  return (
    <>
      {props.items.slice(0, shown).map(props.render)}
      {rest > 0 && (
        <button type="button" class="more" onClick={() => setShown(shown + step)}>
          Show {Math.min(step, rest)} more {props.what} ({rest} not shown)
        </button>
      )}
    </>
  );
}
