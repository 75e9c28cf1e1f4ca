// Feed and audit services over their memory repositories, typed as what they are on that path: every
// answer at once. For unit tests of consumers that read them synchronously.
import { STREAM_DEFAULTS } from '../contract/simulator-defaults.ts';
import { createClock, type Clock } from '../lib/clock.ts';
import { type AuditService, createAuditService } from '../services/audit-service.ts';
import { createFeedService, type FeedService } from '../services/feed-service.ts';
import { createAuditStore } from '../state/audit-store.ts';
import { createFeedStore } from '../state/feed-store.ts';

/** A service whose MaybePromise answers are plain values (the memory repository answers at once). */
export type Settled<S> = {
  [K in keyof S]: S[K] extends (...args: infer A) => infer R ? (...args: A) => Awaited<R> : S[K];
};

/** @example const feeds = memoryFeeds({ retention: 3 }); feeds.publish(PUBLIC_FEED, 'x', {}).id // 1 */
export function memoryFeeds(opts: { retention?: number; clock?: Clock } = {}): Settled<FeedService> {
  return createFeedService({
    repository: createFeedStore(),
    clock: opts.clock ?? createClock(),
    retention: opts.retention ?? STREAM_DEFAULTS.retention,
  }) as Settled<FeedService>;
}

/** @example memoryAudit().append('t', { requestId: 'r', actor: 'a', action: 'x.y', target: 'x:1' }).seq // 1 */
export function memoryAudit(opts: { maxEntries?: number; clock?: Clock } = {}): Settled<AuditService> {
  return createAuditService({
    repository: createAuditStore(),
    clock: opts.clock ?? createClock(),
    ...(opts.maxEntries ? { maxEntries: opts.maxEntries } : {}),
  }) as Settled<AuditService>;
}

/** One tenant's chain of a memory audit service (tests written against a single chain). */
export function memoryAuditChain(tenant: string, opts: { maxEntries?: number; clock?: Clock } = {}) {
  const audit = memoryAudit(opts);
  return {
    tenant,
    append: (input: Parameters<AuditService['append']>[1]) => audit.append(tenant, input),
    head: () => audit.head(tenant),
    list: (o?: { limit?: number; before?: number }) => audit.list(tenant, o),
    size: () => audit.size(tenant),
  };
}
