import { andThen } from '../ports/maybe-promise.ts';
import type { ReceiverRecord, ReceiverRepository } from '../ports/receivers.ts';
import type { Persistence } from './persistence.ts';
import { afterLoad, expectRecord, loadEach } from './write-through.ts';

/** Records namespace of the data dir (and of a shared sandbox's snapshots): unchanged since the first data dirs. */
const NS = 'webhooks';

const isReceiver = (r: ReceiverRecord | undefined) =>
  typeof r?.id === 'string' &&
  typeof r.tenant === 'string' &&
  typeof r.url === 'string' &&
  typeof r.secret === 'string' &&
  Array.isArray(r.events);

/**
 * Webhook receivers written through to `persistence` (the SQLite data dir, or the snapshot persistence
 * of a shared sandbox): loaded into the repository at start, every insert, removal and clear stored in
 * the same step as it is made. Without a durable persistence the repository is answered as is.
 * @example const repository = durableReceivers(createWebhookReceiverStore(), openSqlitePersistence(dir));
 */
export function durableReceivers(repository: ReceiverRepository, persistence: Persistence): ReceiverRepository {
  if (!persistence.durable) return repository;
  const ready = afterLoad(
    loadEach(persistence.entries<ReceiverRecord>(NS), ([, receiver]) => {
      expectRecord(persistence, isReceiver(receiver), 'a webhook receiver ({id, tenant, url, events, secret})');
      return repository.insert(receiver);
    }),
  );
  return {
    insert: (receiver) =>
      ready(() => andThen(repository.insert(receiver), () => persistence.put(NS, receiver.id, receiver))),
    get: (tenant, id) => ready(() => repository.get(tenant, id)),
    list: (tenant) => ready(() => repository.list(tenant)),
    countFor: (tenant) => ready(() => repository.countFor(tenant)),
    remove: (tenant, id) =>
      ready(() =>
        andThen(repository.remove(tenant, id), (removed) => {
          if (removed) persistence.delete(NS, id);
          return removed;
        }),
      ),
    subscribedTo: (tenant, event) => ready(() => repository.subscribedTo(tenant, event)),
    count: () => ready(() => repository.count()),
    clear: () => ready(() => andThen(repository.clear(), () => persistence.deleteNamespace(NS))),
  };
}
