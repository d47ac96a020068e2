/** Step numbers as every report writes them. Pure and free of Node APIs: the HTML viewer bundles it too. */

/** "steps 5–7", "step 2", "steps 1, 4, 9" */
export function stepsText(steps: readonly number[]): string {
  if (steps.length === 0) return '';
  if (steps.length === 1) return `step ${steps[0]}`;
  const contiguous = steps.every((n, i) => i === 0 || n === steps[i - 1]! + 1);
  if (contiguous) return `steps ${steps[0]}–${steps[steps.length - 1]}`;
  const shown = steps.slice(0, 8).join(', ');
  return `steps ${shown}${steps.length > 8 ? `, … (${steps.length})` : ''}`;
}
