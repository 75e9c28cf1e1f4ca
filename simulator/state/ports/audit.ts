import type { AuditEntry } from '../../contract/audit-hash.ts';
import type { MaybePromise } from './maybe-promise.ts';

export type { AuditEntry };

/** A page of one tenant's chain as kept: the entries asked for and the ends of what is held. */
export interface AuditWindow {
  /** Entries with a seq below `before` (all when undefined), at most `limit`, oldest first (a new array). */
  entries: AuditEntry[];
  /** The oldest entry held (older ones were dropped), undefined while nothing is held. */
  oldest: AuditEntry | undefined;
  /** The newest entry held: the chain's head. */
  newest: AuditEntry | undefined;
}

/**
 * Where the audit chains are kept: per tenant the newest entries (a bounded window, oldest dropped first),
 * each entry as given. It hashes, checks and numbers nothing and reads no clock: the audit service
 * (services/audit-service.ts) builds and chains entries, computes proofs and pages. Every method may
 * answer with a promise (a store across the network); the memory repository answers at once.
 * @example andThen(repository.newest(tenant), (head) => repository.append(tenant, entryAfter(head), 100_000))
 */
export interface AuditRepository {
  /**
   * Keeps `entry` as the tenant's newest, dropping the oldest past `keep` entries, if its seq follows the
   * newest's; answers false and keeps nothing when it does not (another writer appended first: one
   * check-and-append, so a chain shared by several writers never forks).
   */
  append(tenant: string, entry: AuditEntry, keep: number): MaybePromise<boolean>;
  /** Puts back stored entries (oldest first) after a restart: those not after the newest are skipped. */
  load(tenant: string, entries: readonly AuditEntry[], keep: number): MaybePromise<void>;
  /** The tenant's newest entry (undefined for an empty chain). */
  newest(tenant: string): MaybePromise<AuditEntry | undefined>;
  /** A page of the tenant's chain and the ends of what is held. */
  window(tenant: string, before: number | undefined, limit: number): MaybePromise<AuditWindow>;
  /** Entries held for the tenant. */
  size(tenant: string): MaybePromise<number>;
  /** Tenants with a chain. */
  tenants(): MaybePromise<string[]>;
  /** Drops every chain (each starts again from seq 1). */
  clear(): MaybePromise<void>;
}
