import type { CheckContext } from '../../runner/check.ts';

/** How often a read that does not show a write yet is made again. */
export const READ_AGAIN_MS = 200;

/**
 * A read made again until it shows what the kit wrote, or the deployment profile's listConsistencyWaitMs
 * passes (the interface promises no read-after-write consistency: a list, an audit log or a delivery log
 * served from a replica a few hundred milliseconds behind is a legal design). A read that is up to date
 * at once costs nothing; `settled` ends the wait early on an answer that will not change (an error).
 * @example const ex = await readEventually(ctx, () => ctx.call('GET', path), (ex) => ex.status !== 200 || listsIt(ex));
 */
export async function readEventually<T>(
  ctx: CheckContext,
  read: () => Promise<T>,
  settled: (value: T) => boolean,
): Promise<T> {
  const until = Date.now() + ctx.deployment.listConsistencyWaitMs;
  for (;;) {
    // Judged by when a read started: one slowed past the wait by a busy machine is followed by one that
    // starts after it, so the last read always sees the deployment as it was the whole wait later.
    const started = Date.now();
    const value = await read();
    if (settled(value) || started >= until || ctx.signal.aborted) return value;
    if (Date.now() < until) await new Promise((resolve) => setTimeout(resolve, READ_AGAIN_MS));
  }
}
