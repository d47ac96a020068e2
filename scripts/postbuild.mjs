// tsc keeps the shebang but not the run bit; npm sets it on install, a local `node build/...` needs it too.
import { chmodSync } from 'node:fs';
chmodSync(new URL('../build/cli/bin.js', import.meta.url), 0o755);
