import { must } from '../lib/invariant.ts';
import type { IdempotencyRecord, IdempotencyRepository } from './ports/idempotency.ts';

/**
 * Idempotency records in memory, by id, with their insertion order. With one TTL that order is (nearly)
 * expiry order, so the service's sweep only ever looks at the oldest record: `oldest` skips the order's
 * stale entries (records replaced or removed since) in O(1) amortised per insert.
 * @example const repository = createIdempotencyStore(); repository.insert(record); repository.oldest();
 */
export function createIdempotencyStore() {
  const records = new Map<string, IdempotencyRecord>();
  // Records in insertion order. A Map would give that order too, but iterating from its head after many
  // deletes walks every deleted slot again on each sweep. Entries whose record was replaced or removed
  // are stale and skipped.
  let order: (IdempotencyRecord | undefined)[] = [];
  let head = 0;
  return {
    find: (id: string): IdempotencyRecord | undefined => records.get(id),
    insert(r: IdempotencyRecord) {
      records.delete(r.id); // re-inserted at the tail: it is the newest now
      records.set(r.id, r);
      order.push(r);
    },
    update(r: IdempotencyRecord) {
      const kept = records.get(r.id);
      if (!kept || kept === r) return;
      kept.fingerprint = r.fingerprint;
      kept.outcome = r.outcome;
    },
    remove(id: string) {
      records.delete(id);
    },
    oldest(): IdempotencyRecord | undefined {
      while (head < order.length) {
        const r = must(order[head], 'head lies inside the insertion order');
        if (records.get(r.id) === r) break;
        order[head++] = undefined; // the stale record itself may go now, not at the next compaction
      }
      if (head > 1024 && head * 2 > order.length) {
        order = order.slice(head);
        head = 0;
      }
      return order[head];
    },
    count: () => records.size,
    clear() {
      records.clear();
      order = [];
      head = 0;
    },
  } satisfies IdempotencyRepository;
}

export type IdempotencyStore = ReturnType<typeof createIdempotencyStore>;
