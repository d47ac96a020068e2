/** Text from a trace, shown as text (never markup), long ones cut with a way to see all of it. */
import { useState } from 'preact/hooks';

const CUT = 4000;

export function TextBlock({ text }: { text: string }) {
  const [all, setAll] = useState(false);
  const long = text.length > CUT;
  return (
    <div class="text-block">
      <pre>{long && !all ? `${text.slice(0, CUT)}…` : text}</pre>
      {long && (
        <button type="button" class="link-button" onClick={() => setAll(!all)}>
          {all ? 'show less' : `show all ${text.length.toLocaleString('en-US')} characters`}
        </button>
      )}
    </div>
  );
}
