import type { Environment } from '../contract/environment.ts';
import { createDueQueue } from '../lib/due-queue.ts';
import {
  type ConnectionRecord,
  type ConnectionRepository,
  copyConnection,
  type StoredConnection,
} from './ports/connections.ts';

const NONE: readonly StoredConnection[] = Object.freeze([]);

/**
 * The memory repository of connections (ports/connections.ts): records, the indexes by id, tenant and
 * (tenant, connector, environment) and the due queue of pending activations. It answers every call at
 * once. A kept record is frozen and replaced on update, never changed in place. The lifecycle, timers and events are the connection service's; the write-through to a data dir
 * is a decorator's (persistence/durable-connections.ts): the store never sees Persistence.
 * @example const repository = createConnectionsStore(); repository.insert(stored);
 */
export function createConnectionsStore(): ConnectionRepository {
  const byId = new Map<string, StoredConnection>();
  const byTenant = new Map<string, StoredConnection[]>();
  // Capability checks ask for one tenant's connections to one connector in one environment: indexed,
  // so a check costs the same with ten or a hundred thousand stored connections.
  const byTarget = new Map<string, StoredConnection[]>();
  const target = (tenant: string, connectorId: string, environment: Environment) =>
    `${tenant}\u0000${connectorId}\u0000${environment}`;
  const pending = new Set<StoredConnection>();
  // Pending connections by activation time; entries of connections that left `pending` are skipped.
  const due = createDueQueue<StoredConnection>();
  const index = (stored: StoredConnection) => {
    byId.set(stored.connection.id, stored);
    const list = byTenant.get(stored.tenant);
    if (list) list.push(stored);
    else byTenant.set(stored.tenant, [stored]);
    const key = target(stored.tenant, stored.connection.connectorId, stored.connection.environment);
    const same = byTarget.get(key);
    if (same) same.push(stored);
    else byTarget.set(key, [stored]);
    if (stored.activatesAt !== undefined) {
      pending.add(stored);
      due.push(stored.activatesAt, stored);
    }
  };
  const copies = (list: StoredConnection[] | undefined): ConnectionRecord[] =>
    list ? list.map((s) => copyConnection(s.connection)) : [];

  return {
    insert(stored) {
      // Never changed in place from here on (update replaces it), so it is shared as it is.
      Object.freeze(stored.connection);
      index(stored);
    },
    update(id, change) {
      const s = byId.get(id);
      if (!s) return undefined;
      // A new record in its place, not a change in place: the one before may still be held (the answer
      // that created it, an idempotency record, a stream message), and none of them may change.
      s.connection = Object.freeze({
        ...s.connection,
        state: change.state,
        nextStep: change.nextStep,
        updatedAt: change.updatedAt,
      });
      s.activatesAt = undefined;
      pending.delete(s);
      return s.connection;
    },
    find(id) {
      const s = byId.get(id);
      return s ? { tenant: s.tenant, connection: copyConnection(s.connection) } : undefined;
    },
    list: (tenant) => copies(byTenant.get(tenant)),
    forTarget: (tenant, connectorId, environment) => copies(byTarget.get(target(tenant, connectorId, environment))),
    count: () => byId.size,
    takeDue(now) {
      if (pending.size === 0) {
        if (due.size()) due.clear();
        return NONE;
      }
      if ((due.peek() ?? Infinity) > now) return NONE;
      return due.popDue(now).filter((s) => pending.has(s));
    },
    nextDue: () => (pending.size ? due.peek() : undefined),
    clear() {
      byId.clear();
      byTenant.clear();
      byTarget.clear();
      pending.clear();
      due.clear();
    },
  };
}
