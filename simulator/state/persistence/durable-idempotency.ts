import {
  type IdempotencyRecord,
  type IdempotencyRepository,
  idempotencyRecordId,
  type StoredOutcome,
} from '../ports/idempotency.ts';
import { andThen } from '../ports/maybe-promise.ts';
import type { Persistence } from './persistence.ts';
import { after, afterLoad, loadEach } from './write-through.ts';

/** The namespace of idempotency records in a data dir (and a shared sandbox's snapshots). */
const NS = 'idempotency';

/** Records written before outcomes were values kept the member as JSON text. */
function upgradeOutcome(o: StoredOutcome | { status: number; ok: boolean; payload: string } | undefined) {
  if (!o || !('payload' in o)) return o;
  return (
    o.ok
      ? { status: o.status, ok: true, data: JSON.parse(o.payload) }
      : { status: o.status, ok: false, error: JSON.parse(o.payload) }
  ) as StoredOutcome;
}

/**
 * Only settled records are written (an issued key, or a kept outcome): an operation in flight at a
 * crash was never acknowledged, so the record written before it (an issued key) stands.
 */
const settled = (r: IdempotencyRecord) => r.outcome !== undefined || r.fingerprint === undefined;

/**
 * Idempotency records that write through to `persistence` and are loaded from it at start, oldest
 * expiry first (the sweep's order). Without a durable persistence the repository is returned as is.
 * @example const repository = durableIdempotency(createIdempotencyStore(), persistence);
 */
export function durableIdempotency(repository: IdempotencyRepository, p: Persistence): IdempotencyRepository {
  if (!p.durable) return repository;
  const loaded = [...p.entries<IdempotencyRecord & { inFlight?: unknown }>(NS)]
    .map(([, r]) => r)
    .sort((a, b) => a.expiresAt - b.expiresAt);
  // Inserted in this order (the oldest first); a repository answering promises gets each after the
  // previous one, and a failed load fails every later write through here rather than pass unnoticed.
  const ready = afterLoad(
    loadEach(loaded, (r) => {
      const { inFlight: _, ...stored } = r;
      return repository.insert({
        ...stored,
        id: idempotencyRecordId(r.tenant, r.key),
        outcome: upgradeOutcome(r.outcome),
      });
    }),
  );
  const save = (r: IdempotencyRecord) => {
    if (settled(r)) p.put(NS, r.id, r);
  };
  return {
    ...repository,
    insert: (r) => ready(() => after(repository.insert(r), () => save(r))),
    // Only a record the repository still holds: one the bound dropped while its operation ran (update is a
    // no-op for it) would otherwise be written back, and loaded at the next start beyond the bound.
    update: (r) =>
      ready(() =>
        andThen(repository.find(r.id), (kept) => (kept ? after(repository.update(r), () => save(r)) : undefined)),
      ),
    remove: (id) => ready(() => after(repository.remove(id), () => p.delete(NS, id))),
    clear: () => ready(() => after(repository.clear(), () => p.deleteNamespace(NS))),
  };
}
