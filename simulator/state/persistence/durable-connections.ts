import { andThen } from '../ports/maybe-promise.ts';
import type { ConnectionRepository, StoredConnection } from '../ports/connections.ts';
import type { Persistence } from './persistence.ts';
import { afterLoad, expectRecord, loadEach } from './write-through.ts';

/** Records namespace of the data dir (and of a shared sandbox's snapshots): unchanged since the first data dirs. */
const NS = 'connections';

const isStoredConnection = (s: StoredConnection | undefined) =>
  typeof s?.tenant === 'string' &&
  typeof s.connection?.id === 'string' &&
  typeof s.connection.connectorId === 'string' &&
  Array.isArray(s.connection.capabilities) &&
  (s.activatesAt === undefined || s.activatesAt === null || Number.isFinite(s.activatesAt));

/**
 * Connections written through to `persistence` (the SQLite data dir, or the snapshot persistence of a
 * shared sandbox): the stored records are inserted into the repository at start (a pending one takes
 * its place in the due queue again), and every write goes to the repository and then to persistence in
 * the same step, so an acknowledged write is stored. Without a durable persistence the repository is
 * answered as is: the memory path pays nothing.
 * @example const repository = durableConnections(createConnectionsStore(), openSqlitePersistence(dir));
 */
export function durableConnections(repository: ConnectionRepository, persistence: Persistence): ConnectionRepository {
  if (!persistence.durable) return repository;
  const ready = afterLoad(
    loadEach(persistence.entries<StoredConnection>(NS), ([, stored]) => {
      expectRecord(persistence, isStoredConnection(stored), 'a connection ({tenant, activatesAt, connection})');
      // JSON has no undefined: a record that left pending was stored without activatesAt.
      return repository.insert(stored.activatesAt === null ? { ...stored, activatesAt: undefined } : stored);
    }),
  );
  return {
    insert: (stored) =>
      ready(() => andThen(repository.insert(stored), () => persistence.put(NS, stored.connection.id, stored))),
    update: (id, change) =>
      ready(() =>
        andThen(repository.update(id, change), (changed) => {
          if (!changed) return changed;
          // The whole record is stored (its tenant with it); a transition always leaves pending.
          return andThen(repository.find(id), (found) => {
            if (found)
              persistence.put(NS, id, { tenant: found.tenant, activatesAt: undefined, connection: found.connection });
            return changed;
          });
        }),
      ),
    find: (id) => ready(() => repository.find(id)),
    list: (tenant) => ready(() => repository.list(tenant)),
    forTarget: (tenant, connectorId, environment) =>
      ready(() => repository.forTarget(tenant, connectorId, environment)),
    count: () => ready(() => repository.count()),
    takeDue: (now) => ready(() => repository.takeDue(now)),
    nextDue: () => ready(() => repository.nextDue()),
    clear: () => ready(() => andThen(repository.clear(), () => persistence.deleteNamespace(NS))),
  };
}
