import type { Delivery, DeliveryLogRepository } from '../ports/deliveries.ts';
import { andThen, type MaybePromise } from '../ports/maybe-promise.ts';
import type { Persistence } from './persistence.ts';
import { afterLoad, expectRecord, loadEach } from './write-through.ts';

/** Records namespace of the data dir (and of a shared sandbox's snapshots): unchanged since the first data dirs. */
const DELIVERIES = 'deliveries';
const NONE: readonly Delivery[] = Object.freeze([]);

const isDelivery = (d: Delivery | undefined) =>
  typeof d?.id === 'string' &&
  typeof d.receiverId === 'string' &&
  typeof d.createdAt === 'string' &&
  typeof d.status === 'string' &&
  Array.isArray(d.attempts);

/**
 * A delivery log written through to `persistence` (the SQLite data dir, or the snapshot persistence of
 * a shared sandbox): the stored records are inserted oldest first at start (the per-receiver cap applies
 * as it did when they were made), and every insert, update, removal and clear is stored in the same step.
 * `pendingAtStart` lists the restored deliveries still pending (cut by a shutdown or a kill) that the log
 * kept, for the dispatcher to resume. Without a durable persistence the log is answered as is, with
 * nothing pending.
 * @example const log = durableDeliveries(createDeliveryLog(), persistence); andThen(log.pendingAtStart, resumeEach);
 */
export function durableDeliveries(
  log: DeliveryLogRepository,
  p: Persistence,
): DeliveryLogRepository & { pendingAtStart: MaybePromise<readonly Delivery[]> } {
  if (!p.durable) return Object.assign(log, { pendingAtStart: NONE });
  const stored: Delivery[] = [];
  for (const [, d] of p.entries<Delivery>(DELIVERIES)) {
    expectRecord(p, isDelivery(d), 'a delivery ({id, receiverId, status, attempts, createdAt, …})');
    stored.push(d);
  }
  stored.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  const loaded = loadEach(stored, (d) => log.insert(d));
  const ready = afterLoad(loaded);
  // A pending delivery the cap dropped while loading is not resumed (it is no longer in the log).
  const pendingAtStart = ready(() => {
    const pending = stored.filter((d) => d.status === 'pending');
    const kept: Delivery[] = [];
    const looked = loadEach(pending, (d) =>
      andThen(log.get(d.id), (found) => {
        if (found !== undefined) kept.push(d);
      }),
    );
    return andThen(looked, () => kept as readonly Delivery[]);
  });
  return {
    pendingAtStart,
    insert: (d) => ready(() => andThen(log.insert(d), () => p.put(DELIVERIES, d.id, d))),
    update: (d) =>
      ready(() =>
        andThen(log.update(d), (kept) => {
          if (kept) p.put(DELIVERIES, d.id, d);
          return kept;
        }),
      ),
    get: (id) => ready(() => log.get(id)),
    listByReceiver: (receiverId, opts) => ready(() => log.listByReceiver(receiverId, opts)),
    countByReceiver: (receiverId) => ready(() => log.countByReceiver(receiverId)),
    removeReceiver: (receiverId) =>
      ready(() =>
        andThen(log.countByReceiver(receiverId), (count) =>
          andThen(log.listByReceiver(receiverId, { limit: count || 1 }), (gone) =>
            andThen(log.removeReceiver(receiverId), () => {
              for (const d of gone) p.delete(DELIVERIES, d.id);
            }),
          ),
        ),
      ),
    clear: () => ready(() => andThen(log.clear(), () => p.deleteNamespace(DELIVERIES))),
  };
}
