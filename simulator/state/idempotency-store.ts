import type { Clock } from './clock.ts';
import { newId } from './ids.ts';
import { memoryOnly, type Persistence } from './persistence/persistence.ts';

const NS = 'idempotency';

/** A stored outcome of an operation: replayed for the same key and content. */
export interface StoredOutcome {
  status: number;
  /** The `data` (success) or `error` (failure) member of the envelope, as JSON text. */
  payload: string;
  ok: boolean;
}

interface IdempotencyRecord {
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
  | { kind: 'new'; finish(outcome: StoredOutcome | undefined): void }
  | { kind: 'replay'; outcome: StoredOutcome }
  | { kind: 'conflict' }
  | { kind: 'wait'; settled: Promise<void> };

export interface IdempotencyOptions {
  /** How long a key (issued or used) stays valid, ms. Default 24 h. */
  ttlMs: number;
  /** Most records kept; past it the oldest go first. Default 200,000. */
  maxRecords: number;
}

/**
 * Idempotency records per (tenant, key). A Map keeps insertion order, which with one TTL is expiry
 * order: expired and over-cap records are dropped from its head in O(1) per insert.
 * @example const b = store.begin('t1', 'key-12345', fingerprint); if (b.kind === 'new') b.finish(outcome);
 */
export interface IdempotencyStore {
  /** Issues a fresh unguessable key; `now` lets the caller stamp it with its request time. */
  issue(tenant: string, operation: string, now?: number): { idempotencyKey: string; operation: string; expiresAt: number };
  begin(tenant: string, key: string, fingerprint: string): Begin;
  size(): number;
  clear(): void;
  readonly options: IdempotencyOptions;
}

export function createIdempotencyStore(clock: Clock, options: Partial<IdempotencyOptions> = {}, persistence: Persistence = memoryOnly): IdempotencyStore {
  const opts: IdempotencyOptions = { ttlMs: options.ttlMs ?? 24 * 3600_000, maxRecords: options.maxRecords ?? 200_000 };
  const records = new Map<string, IdempotencyRecord>();
  const id = (tenant: string, key: string) => `${tenant}\u0000${key}`;
  // Only settled records are written; an operation in flight at a crash was never acknowledged.
  const save = (r: IdempotencyRecord) => persistence.put(NS, id(r.tenant, r.key), { ...r, inFlight: undefined });
  const loaded = [...persistence.entries<IdempotencyRecord>(NS)].map(([, r]) => r).sort((a, b) => a.expiresAt - b.expiresAt);
  for (const r of loaded) records.set(id(r.tenant, r.key), { ...r, inFlight: undefined });

  function sweep(now: number) {
    for (const [k, r] of records) {
      if (records.size > opts.maxRecords || (r.expiresAt <= now && !r.inFlight)) {
        records.delete(k);
        persistence.delete(NS, k);
      } else break;
    }
  }

  function insert(r: IdempotencyRecord) {
    const k = id(r.tenant, r.key);
    records.delete(k); // re-insert at the tail: its expiry is now the latest
    records.set(k, r);
    sweep(clock.now());
  }

  return {
    options: opts,
    issue(tenant, operation, now = clock.now()) {
      const key = newId('idk', 24);
      const issued: IdempotencyRecord = { tenant, key, operation, fingerprint: undefined, expiresAt: now + opts.ttlMs, outcome: undefined, inFlight: undefined };
      insert(issued);
      save(issued);
      return { idempotencyKey: key, operation, expiresAt: now + opts.ttlMs };
    },
    begin(tenant, key, fingerprint) {
      const now = clock.now();
      let r = records.get(id(tenant, key));
      if (r && r.expiresAt <= now && !r.inFlight) {
        records.delete(id(tenant, key));
        r = undefined;
      }
      if (r?.fingerprint !== undefined) {
        if (r.fingerprint !== fingerprint) return { kind: 'conflict' };
        if (r.outcome) return { kind: 'replay', outcome: r.outcome };
        if (r.inFlight) return { kind: 'wait', settled: r.inFlight };
      }
      let settle!: () => void;
      const record: IdempotencyRecord = {
        tenant, key, operation: r?.operation, fingerprint, expiresAt: now + opts.ttlMs, outcome: undefined,
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
          } else if (records.get(id(tenant, key)) === record) {
            // Not stored: the key is free again (kept as issued when it was).
            if (record.operation) record.fingerprint = undefined;
            else {
              records.delete(id(tenant, key));
              persistence.delete(NS, id(tenant, key));
            }
          }
          settle();
        },
      };
    },
    size: () => records.size,
    clear() {
      records.clear();
      persistence.deleteNamespace(NS);
    },
  };
}
