/** A byte count for people: `812 bytes`, `64 KiB`, `1.5 MiB`, `4 GiB` (binary units, one decimal). */
export function formatBytes(n: number): string {
  const units = ['KiB', 'MiB', 'GiB', 'TiB'] as const;
  if (n < 1024) return `${n} ${n === 1 ? 'byte' : 'bytes'}`;
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const shown = value >= 100 ? String(Math.round(value)) : value.toFixed(1).replace(/\.0$/, '');
  return `${shown} ${units[unit]}`;
}
