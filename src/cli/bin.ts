#!/usr/bin/env node
import { enableCompileCache } from 'node:module';

/**
 * Node's on-disk compile cache (Node 22.1+; the default directory under the system's temporary
 * directory, `NODE_COMPILE_CACHE` to move it, `NODE_DISABLE_COMPILE_CACHE=1` to turn it off):
 * compiling the CLI's modules was a noticeable part of a short run's start-up, and the cache is
 * checked against each file's content, so a changed build is compiled again. Only modules loaded
 * after this call are cached, hence the dynamic import below instead of static imports.
 */
enableCompileCache();
await import('./start.js');
