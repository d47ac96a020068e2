// Loaded with `node --import` by bench/analyze.mjs when /usr/bin/time is not available: prints the
// process's peak RSS (KB) on stderr as it exits.
import { writeSync } from 'node:fs';

process.on('exit', () => {
  writeSync(2, `\nmaxrss ${process.resourceUsage().maxRSS}\n`);
});
