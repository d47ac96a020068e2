/**
 * Every receiver still open, so that the plugin's setup file can close them all when the run ends
 * (`closeAllReceivers()`), however a test left them. Receivers also unref their server, so one
 * that escapes even this never keeps the process alive; closing them releases their ports and
 * connections, and settles any `waitForTrace` still waiting.
 */
const open = new Set<{ close(): Promise<void> }>();

export function registerReceiver(receiver: { close(): Promise<void> }): void {
  open.add(receiver);
}

export function unregisterReceiver(receiver: { close(): Promise<void> }): void {
  open.delete(receiver);
}

/** Closes every receiver started in this process and not yet closed. */
export async function closeAllReceivers(): Promise<void> {
  await Promise.all([...open].map((r) => r.close()));
}
