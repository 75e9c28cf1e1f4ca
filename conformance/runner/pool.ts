/**
 * Runs `work` over `items` with at most `limit` at once; results keep the input order.
 * @example const results = await pool(checks, 4, (check) => runCheck(check, run));
 */
export async function pool<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  // One iterator shared by the workers: each takes the next item, so none is run twice.
  const queue = items.entries();
  const worker = async () => {
    for (const [i, item] of queue) out[i] = await work(item);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
