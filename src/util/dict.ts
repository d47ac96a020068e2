/**
 * A record keyed by data (detector ids, model names, agent ids, attribute names from a trace):
 * with no prototype, a key named `__proto__`, `constructor` or `toString` is only a key — it can
 * neither reach Object.prototype through `acc[key] ??= …` nor be found there by `acc[key]`.
 */
export function dict<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** `record[key]` when the record has it as its own key, never what Object.prototype holds. */
export function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
