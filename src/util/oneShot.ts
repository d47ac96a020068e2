/**
 * For schemas parsed a handful of times per run (the config, each detector's settings once per
 * agent): zod otherwise generates and compiles a fast-path parser for every object schema on its
 * first use, which took about 25 ms of a one-trace run for parses that take microseconds.
 */
export const ONE_SHOT = { jitless: true } as const;
