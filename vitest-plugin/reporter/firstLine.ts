/**
 * The first line of an error message: what a report and a PR comment show. A first line that ends
 * in a colon announces the lines below it (`…, but it has 3:` then the signals), so the first of
 * those comes with it rather than leave the gate's line cut at the colon.
 */
export function firstLine(message: string | undefined): string {
  const lines = (message ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const [first = '', next] = lines;
  return first.endsWith(':') && next !== undefined ? `${first} ${next.replace(/^[-*•]\s+/, '')}` : first;
}
