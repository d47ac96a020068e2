/** A run's or a diff's notes under a "Notes" heading; nothing when there are none. */
export function NoteList({ notes }: { notes: readonly string[] }) {
  if (notes.length === 0) return null;
  return (
    <>
      <h3>Notes</h3>
      <ul class="plain-list">
        {notes.map((n, i) => (
          <li key={i}>{n}</li>
        ))}
      </ul>
    </>
  );
}
