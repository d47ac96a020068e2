/** Tool name patterns of the `attribution.readTools` setting: `*` stands for any characters. */
export function namePatterns(patterns: readonly string[]): (name: string) => boolean {
  // The run's settings are one array, read for every trace: compiled once per array.
  let matcher = compiledPatterns.get(patterns);
  if (!matcher) compiledPatterns.set(patterns, (matcher = compile(patterns)));
  return matcher;
}

const compiledPatterns = new WeakMap<readonly string[], (name: string) => boolean>();

function compile(patterns: readonly string[]): (name: string) => boolean {
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
