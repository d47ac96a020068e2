/** `tracejury/vitest`: the plugin, the helpers that bring traces into a test, and the matcher types. */
export {};
