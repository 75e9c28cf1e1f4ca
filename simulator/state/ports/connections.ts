import type { Connection } from '../../contract/connections.ts';
import type { Environment } from '../../contract/environment.ts';
import type { MaybePromise } from './maybe-promise.ts';

/** The states a stored connection can be in (the rules between them: services/connection-lifecycle.ts). */
export const CONNECTION_STATES = ['pending', 'active', 'paused', 'revoked'] as const;
export type ConnectionState = (typeof CONNECTION_STATES)[number];

/** A connection as stored: the interface's fields, its state and when it last changed. */
export type ConnectionRecord = Connection & { state: ConnectionState; updatedAt: string };

export interface StoredConnection {
  tenant: string;
  /** When a pending connection becomes active (sandbox clock, ms); undefined once it left pending. */
  activatesAt: number | undefined;
  connection: ConnectionRecord;
}

/** What a transition changes on a stored connection (it also leaves the due queue). */
export interface ConnectionChange {
  state: ConnectionState;
  nextStep: string;
  updatedAt: string;
}

/**
 * Where connections are kept: records, their look-ups by id, tenant and (tenant, connector,
 * environment), and the due queue of pending activations. It knows no clock, timeline, rule or event:
 * those are the connection service's (services/connection-service.ts). Every method may answer with a
 * promise (a store across the network); the memory repository answers at once.
 * Everything answered is the caller's own copy, except `takeDue`'s records and `update`'s answer (read
 * them, never change them). A record given to `insert` is kept as it is and never changed afterwards: an
 * update puts a new record in its place, so whoever holds the one before (the answer that created it,
 * its stream message, an idempotency record) reads it unchanged.
 * @example andThen(repository.find(id), (found) => found && repository.update(id, change))
 */
export interface ConnectionRepository {
  /** Keeps a new record (the repository takes the object given; the caller no longer changes it). */
  insert(stored: StoredConnection): MaybePromise<void>;
  /** Applies a transition; answers the new record (read-only), or undefined when there is no such id. */
  update(id: string, change: ConnectionChange): MaybePromise<ConnectionRecord | undefined>;
  /** Any tenant's connection by id. */
  find(id: string): MaybePromise<{ tenant: string; connection: ConnectionRecord } | undefined>;
  /** A tenant's connections, oldest first. */
  list(tenant: string): MaybePromise<ConnectionRecord[]>;
  /** A tenant's connections to one connector in one environment, oldest first (capability decisions). */
  forTarget(tenant: string, connectorId: string, environment: Environment): MaybePromise<ConnectionRecord[]>;
  count(): MaybePromise<number>;
  /** Takes the pending connections due at or before `now` off the due queue, earliest first. */
  takeDue(now: number): MaybePromise<readonly StoredConnection[]>;
  /** When the earliest pending activation falls due, if any. */
  nextDue(): MaybePromise<number | undefined>;
  clear(): MaybePromise<void>;
}

/** A connection the caller may change: capabilities copied too. */
export function copyConnection(c: ConnectionRecord): ConnectionRecord {
  return { ...c, capabilities: c.capabilities.map((x) => ({ ...x })) };
}
