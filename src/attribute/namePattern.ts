/** Tool name patterns of the `attribution.readTools` setting: `*` stands for any characters. */
export function namePatterns(patterns: readonly string[]): (name: string) => boolean {
  const compiled = patterns.map(
    (p) =>
      new RegExp(
        `^${p
          .split('*')
          .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*')}$`,
        'i',
      ),
  );
  return (name) => compiled.some((r) => r.test(name));
}
