// The command line the dataset benches share (datasets.mjs, injection.mjs):
//   node bench/<name>.mjs [DATASETS_DIR] [--flag value]…
// DATASETS_DIR defaults to ../shared/datasets beside the repository.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);

/**
 * Stops the bench on a flag it does not know (a typo must not start a full run that ignores it) or
 * one without its value, naming the flags there are; `--help` prints the usage. Every flag takes a
 * value.
 */
export function checkFlags(usage, known) {
  argv.forEach((a, i) => {
    if (!a.startsWith('--') || argv[i - 1]?.startsWith('--')) return;
    if (a === '--help') {
      console.log(`usage: ${usage}`);
      process.exit(0);
    }
    const problem = !known.includes(a)
      ? `unknown flag ${a} (flags: ${known.join(', ')})`
      : argv[i + 1] === undefined || argv[i + 1].startsWith('--')
        ? `${a} needs a value`
        : undefined;
    if (problem) {
      console.error(`${problem}\nusage: ${usage}`);
      process.exit(2);
    }
  });
}

/** The value after `--name`, or undefined when the flag is absent. */
export const flag = (name) => {
  const i = argv.indexOf(name);
  return i === -1 ? undefined : argv[i + 1];
};

const positional = argv.filter((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'));
/** The folder holding the datasets. */
export const root = path.resolve(positional[0] ?? path.join(repo, '../shared/datasets'));
