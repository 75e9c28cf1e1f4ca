import type { ErrorCode } from '../contract/errors.ts';
import type { Clock } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { memoryOnly, type Persistence } from './persistence/persistence.ts';
import { must } from '../lib/invariant.ts';

const NS = 'idempotency';

/**
 * A stored outcome of an operation, replayed for the same key and content: the `data` value of a
 * success or the `error` value of a failure, never envelope text (a replay gets its own meta).
 */
export type StoredOutcome =
  | { status: number; ok: true; data: unknown }
  | { status: number; ok: false; error: { code: ErrorCode; message: string; detail?: string; hint: string } };

/** Records written before outcomes were values kept the member as JSON text. */
function upgradeOutcome(o: StoredOutcome | { status: number; ok: boolean; payload: string } | undefined) {
  if (!o || !('payload' in o)) return o;
  return (
    o.ok
      ? { status: o.status, ok: true, data: JSON.parse(o.payload) }
      : { status: o.status, ok: false, error: JSON.parse(o.payload) }
  ) as StoredOutcome;
}

interface IdempotencyRecord {
  /** Map key: tenant + key. */
  id: string;
  tenant: string;
  key: string;
  operation: string | undefined;
  fingerprint: string | undefined;
  expiresAt: number;
  outcome: StoredOutcome | undefined;
  /** Settles when the in-flight operation finishes (or is released). */
  inFlight: Promise<void> | undefined;
}

export type Begin =
  | { kind: 'new'; finish(outcome: StoredOutcome | undefined): void | Promise<void> }
  | { kind: 'replay'; outcome: StoredOutcome }
  | { kind: 'conflict' }
  | { kind: 'wait'; settled: Promise<void> };

export interface IssuedKey {
  idempotencyKey: string;
  operation: string;
  expiresAt: number;
}

export interface IdempotencyOptions {
  /** How long a key (issued or used) stays valid, ms. Default 24 h. */
  ttlMs: number;
  /** Most records kept; past it the oldest go first. Default 200,000. */
  maxRecords: number;
}

/**
 * Idempotency records per (tenant, key). Insertion order is (nearly) expiry order with one TTL: expired and
 * over-cap records are dropped from the head of that order in O(1) amortised per insert. An issued key
 * first used later keeps its issued expiry, so it may sit behind younger records until the sweep reaches
 * it; `begin` treats it as expired from its expiresAt on, and the cap still bounds the count.
 * @example const b = store.begin('t1', 'key-12345', fingerprint); if (b.kind === 'new') b.finish(outcome);
 */
export interface IdempotencyStore extends IdempotencyPort {
  /** Issues a fresh unguessable key; `now` lets the caller stamp it with its request time. */
  issue(tenant: string, operation: string, now?: number): IssuedKey;
  begin(tenant: string, key: string, fingerprint: string): Begin;
}

/**
 * What the middleware and handlers use: the memory store answers at once (no extra turn of the event
 * loop on the default path), a shared store (Redis) with promises.
 */
export interface IdempotencyPort {
  issue(tenant: string, operation: string, now?: number): IssuedKey | Promise<IssuedKey>;
  begin(tenant: string, key: string, fingerprint: string): Begin | Promise<Begin>;
  size(): number;
  clear(): void;
  readonly options: IdempotencyOptions;
}

/** How long a key stays valid unless configured: 24 h. */
export const DEFAULT_IDEMPOTENCY_TTL_MS = 24 * 3600_000;

export function createIdempotencyStore(
  clock: Clock,
  options: Partial<IdempotencyOptions> = {},
  persistence: Persistence = memoryOnly,
): IdempotencyStore {
  const opts: IdempotencyOptions = {
    ttlMs: options.ttlMs ?? DEFAULT_IDEMPOTENCY_TTL_MS,
    maxRecords: options.maxRecords ?? 200_000,
  };
  const records = new Map<string, IdempotencyRecord>();
  // Records in insertion order (= expiry order with one TTL). A Map would give that order too, but
  // iterating from its head after many deletes walks every deleted slot again on each insert.
  // Entries whose record was replaced or deleted are stale and skipped.
  let order: (IdempotencyRecord | undefined)[] = [];
  let head = 0;
  const id = (tenant: string, key: string) => `${tenant}\u0000${key}`;
  // Only settled records are written; an operation in flight at a crash was never acknowledged.
  const save = (r: IdempotencyRecord) => persistence.put(NS, id(r.tenant, r.key), { ...r, inFlight: undefined });
  const loaded = [...persistence.entries<IdempotencyRecord>(NS)]
    .map(([, r]) => r)
    .sort((a, b) => a.expiresAt - b.expiresAt);
  for (const r of loaded) {
    const rec: IdempotencyRecord = {
      ...r,
      id: id(r.tenant, r.key),
      outcome: upgradeOutcome(r.outcome),
      inFlight: undefined,
    };
    records.set(rec.id, rec);
    order.push(rec);
  }

  function sweep(now: number) {
    while (head < order.length) {
      const r = must(order[head], 'head lies inside the insertion order');
      if (records.get(r.id) === r) {
        if (records.size > opts.maxRecords || (r.expiresAt <= now && !r.inFlight)) {
          records.delete(r.id);
          persistence.delete(NS, r.id);
        } else break;
      }
      order[head++] = undefined; // the record itself may go now, not at the next compaction
    }
    if (head > 1024 && head * 2 > order.length) {
      order = order.slice(head);
      head = 0;
    }
  }

  function insert(r: IdempotencyRecord) {
    records.delete(r.id); // re-insert at the tail: its expiry is now the latest
    records.set(r.id, r);
    order.push(r);
    sweep(clock.now());
  }

  return {
    options: opts,
    issue(tenant, operation, now = clock.now()) {
      const key = newId('idk', 24);
      const issued: IdempotencyRecord = {
        id: id(tenant, key),
        tenant,
        key,
        operation,
        fingerprint: undefined,
        expiresAt: now + opts.ttlMs,
        outcome: undefined,
        inFlight: undefined,
      };
      insert(issued);
      save(issued);
      return { idempotencyKey: key, operation, expiresAt: now + opts.ttlMs };
    },
    begin(tenant, key, fingerprint) {
      const now = clock.now();
      const k = id(tenant, key);
      let r = records.get(k);
      if (r && r.expiresAt <= now && !r.inFlight) {
        records.delete(k);
        r = undefined;
      }
      if (r?.fingerprint !== undefined) {
        if (r.fingerprint !== fingerprint) return { kind: 'conflict' };
        if (r.outcome) return { kind: 'replay', outcome: r.outcome };
        if (r.inFlight) return { kind: 'wait', settled: r.inFlight };
      }
      let settle!: () => void;
      const record: IdempotencyRecord = {
        id: k,
        tenant,
        key,
        operation: r?.operation,
        fingerprint,
        // An issued key keeps the expiry its issue answer announced (item 13): first use does not extend it.
        expiresAt: r?.operation ? r.expiresAt : now + opts.ttlMs,
        outcome: undefined,
        inFlight: new Promise<void>((resolve) => (settle = resolve)),
      };
      insert(record);
      return {
        kind: 'new',
        finish(outcome) {
          record.inFlight = undefined;
          if (outcome) {
            record.outcome = outcome;
            save(record);
          } else if (records.get(k) === record) {
            // Not stored: the key is free again (kept as issued when it was).
            if (record.operation) record.fingerprint = undefined;
            else {
              records.delete(k);
              persistence.delete(NS, k);
            }
          }
          settle();
        },
      };
    },
    size: () => records.size,
    clear() {
      records.clear();
      order = [];
      head = 0;
      persistence.deleteNamespace(NS);
    },
  };
}
