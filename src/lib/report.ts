/** Error reporting: one seam, so a tracker can be plugged in later. Logs to the console today. */
export function reportError(message: string, error?: unknown): void {
  console.error(message, ...(error === undefined ? [] : [error]));
}
