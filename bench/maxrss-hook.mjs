// Loaded with `node --import` by bench/analyze.mjs into every process it measures: prints the
// process's peak RSS (KB) and CPU time (user and system, microseconds: all its threads) on stderr
// as it exits. /usr/bin/time gives CPU time in hundredths of a second, too coarse for a floor run
// of 0.1 s.
import { writeSync } from 'node:fs';

process.on('exit', () => {
  const usage = process.resourceUsage();
  writeSync(2, `\nmaxrss ${usage.maxRSS} cpu ${usage.userCPUTime} ${usage.systemCPUTime}\n`);
});
