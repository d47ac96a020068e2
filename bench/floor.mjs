// A copy of the floor, ../shared/bench/floor.mjs, for checkouts without it (CI runs on a clean clone,
// where ../shared may not exist): bench/analyze.mjs uses this one only when it finds no other, and
// when both exist it runs both on the same file and fails unless they count the same lines. Keep
// the algorithm the same as the original's; its words:
//
// The floor that tracejury's speed is measured against: read a JSONL file in 1 MB chunks of bytes,
// find each newline in the bytes, decode each line and JSON.parse it, nothing else. Any JSONL reader
// must do at least this much. Two readers that look the same are not the floor: readline, and
// decoding whole chunks to strings then splitting them (`rest + chunk`), are several times slower on
// some machines (3-4x on one of this project's: the concatenated chunk string is flattened again
// and again). Prints the number of parsed lines.
//   node ../shared/bench/floor.mjs FILE
// Compare as a ratio measured in the same run, alternating with the program under test, on the
// same file (the machines are shared and their speed drifts from minute to minute).
import fs from 'node:fs';

const file = process.argv[2];
if (!file) {
  console.error('usage: node floor.mjs FILE.jsonl');
  process.exit(2);
}
const CHUNK = 1 << 20;
const NEWLINE = 0x0a;
const fd = fs.openSync(file, 'r');
let buf = Buffer.allocUnsafe(2 * CHUNK);
let held = 0; // bytes of buf holding unread data (the tail of a line, then the new chunk)
let lines = 0;
for (;;) {
  if (buf.length - held < CHUNK) {
    // A line longer than the buffer: grow it.
    const bigger = Buffer.allocUnsafe(2 * buf.length);
    buf.copy(bigger, 0, 0, held);
    buf = bigger;
  }
  const n = fs.readSync(fd, buf, held, CHUNK, null);
  if (n === 0) break;
  held += n;
  let start = 0;
  let nl;
  while ((nl = buf.indexOf(NEWLINE, start)) !== -1 && nl < held) {
    if (nl > start) {
      JSON.parse(buf.toString('utf8', start, nl));
      lines++;
    }
    start = nl + 1;
  }
  buf.copy(buf, 0, start, held);
  held -= start;
}
if (buf.toString('utf8', 0, held).trim()) {
  JSON.parse(buf.toString('utf8', 0, held));
  lines++;
}
fs.closeSync(fd);
console.log(lines);
