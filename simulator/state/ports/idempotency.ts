import type { ErrorCode } from '../../contract/errors.ts';
import { flatJoin } from '../../lib/ids.ts';
import type { MaybePromise } from './maybe-promise.ts';

/**
 * A stored outcome of an operation, replayed for the same key and content: the `data` value of a
 * success or the `error` value of a failure, never envelope text (a replay gets its own meta).
 */
export type StoredOutcome =
  | { status: number; ok: true; data: unknown }
  | { status: number; ok: false; error: { code: ErrorCode; message: string; detail?: string; hint: string } };

/** One key of one tenant, as kept (and, with a data dir, written in namespace `idempotency`). */
export interface IdempotencyRecord {
  /** tenant + NUL + key. */
  id: string;
  tenant: string;
  key: string;
  /** Set for a key issued by POST /idempotency-keys: the operation it was issued for. */
  operation: string | undefined;
  /** The content that holds the key; undefined for an issued key not used yet. */
  fingerprint: string | undefined;
  expiresAt: number;
  /** What a repeat answers; undefined while the operation runs. */
  outcome: StoredOutcome | undefined;
}

/** The record id of a tenant's key (flat: the record keeps it, and every look-up hashes it; see flatJoin). */
export const idempotencyRecordId = (tenant: string, key: string) => flatJoin(tenant, '\u0000', key);

/**
 * Where idempotency records are kept, with their insertion order (the oldest first, for the sweep).
 * It knows no clock, TTL, bound or fingerprint rule: those are the idempotency service's
 * (services/idempotency-service.ts). Every method may answer a promise; memory answers at once.
 * @example andThen(repository.find(idempotencyRecordId('t1', 'key-1')), (r) => r?.outcome)
 */
export interface IdempotencyRepository {
  /** The record (read it, never change it: memory hands out its own; `update` writes a change). */
  find(id: string): MaybePromise<IdempotencyRecord | undefined>;
  /** Keeps the record as the newest, replacing one with the same id (the repository takes the object given). */
  insert(record: IdempotencyRecord): MaybePromise<void>;
  /** Writes a kept record's fingerprint and outcome, in place (its order unchanged); no-op for an unknown id. */
  update(record: IdempotencyRecord): MaybePromise<void>;
  remove(id: string): MaybePromise<void>;
  /** The oldest record kept (first inserted), if any. */
  oldest(): MaybePromise<IdempotencyRecord | undefined>;
  count(): MaybePromise<number>;
  clear(): MaybePromise<void>;
}

export type Begin =
  | { kind: 'new'; finish(outcome: StoredOutcome | undefined): MaybePromise<void> }
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

/** How long a key stays valid unless configured: 24 h. */
export const DEFAULT_IDEMPOTENCY_TTL_MS = 24 * 3600_000;

/** The options with their defaults filled in. */
export function idempotencyOptions(options: Partial<IdempotencyOptions> = {}): IdempotencyOptions {
  return { ttlMs: options.ttlMs ?? DEFAULT_IDEMPOTENCY_TTL_MS, maxRecords: options.maxRecords ?? 200_000 };
}

/**
 * What the middleware, handlers, control plane and inspector use: the idempotency service over the
 * memory repository answers at once (no extra turn of the event loop on the default path), the shared
 * store (Redis) with promises.
 */
export interface IdempotencyPort {
  /** Issues a fresh unguessable key; `now` lets the caller stamp it with its request time. */
  issue(tenant: string, operation: string, now?: number): MaybePromise<IssuedKey>;
  begin(tenant: string, key: string, fingerprint: string): MaybePromise<Begin>;
  size(): MaybePromise<number>;
  clear(): MaybePromise<void>;
  readonly options: IdempotencyOptions;
}
