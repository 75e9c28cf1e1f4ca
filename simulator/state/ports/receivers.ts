import type { MaybePromise } from './maybe-promise.ts';

/** A registered receiver. The secret stays inside the simulator: only its creation answers it, once. */
export interface ReceiverRecord {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  secret: string;
  createdAt: string;
}

/**
 * Where webhook receivers are kept, per tenant. It knows no rule (the per-tenant limit, the secret, the
 * `webhook.created` event are the receiver service's, services/receiver-service.ts). Every method may
 * answer with a promise (a store across the network); the memory repository answers at once.
 * @example andThen(repository.get(tenant, id), (r) => r?.url)
 */
export interface ReceiverRepository {
  /** Keeps a new receiver (the repository takes the object given). */
  insert(receiver: ReceiverRecord): MaybePromise<void>;
  get(tenant: string, id: string): MaybePromise<ReceiverRecord | undefined>;
  /** A tenant's receivers, oldest first. */
  list(tenant: string): MaybePromise<ReceiverRecord[]>;
  /** How many receivers a tenant has. */
  countFor(tenant: string): MaybePromise<number>;
  /** Removes a tenant's receiver; false when it has none with this id. */
  remove(tenant: string, id: string): MaybePromise<boolean>;
  /** A tenant's receivers subscribed to an event name. */
  subscribedTo(tenant: string, event: string): MaybePromise<ReceiverRecord[]>;
  count(): MaybePromise<number>;
  clear(): MaybePromise<void>;
}
