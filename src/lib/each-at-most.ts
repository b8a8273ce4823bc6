/**
 * Calls `work` for every item in order, at most `limit` calls running at once. Rejects with the first
 * failure; no item starts after it (calls already running are not awaited).
 */
export async function eachAtMost<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length)
      await work(items[next++]!).catch((error: unknown) => {
        failed = true;
        throw error;
      });
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
