// The repository ports of the stores under state/. The stores that live beside their features (feeds,
// audit chains, the delivery queue) have theirs in app/feature-ports.ts: state/ imports no feature, not
// even a type. OAuth codes and refresh families have their ports here (state/ports/authorization-codes.ts,
// refresh-families.ts: their services stand on them); app/feature-ports.ts checks their memory stores.
import type { Clock } from '../../lib/clock.ts';
import type { createConnectionsStore } from '../connections-store.ts';
import type { createClientStore } from '../clients.ts';
import type { DeliveryLog } from '../delivery-log.ts';
import type { DeliveryLogRepository } from './deliveries.ts';
import type { FaultStore } from '../fault-store.ts';
import type { IdempotencyPort, IdempotencyStore } from '../idempotency-store.ts';
import type { RateLimitPort, RateLimitStore } from '../rate-limit-store.ts';
import type { createTokenStore } from '../token-store.ts';
import type { createWebhookReceiverStore } from '../webhook-receivers.ts';
import type { ConnectionRepository } from './connections.ts';
import type { ReceiverRepository } from './receivers.ts';
import type { TokenRepository } from './tokens.ts';
import type { ClientRepository } from './clients.ts';
import type { MaybePromise } from './maybe-promise.ts';

/**
 * The repository port of a store: its memory interface with every method free to answer a promise
 * (an adapter across the network waits), except the `InProcess` members, which stay in the process
 * whatever the adapter (subscriptions and watches of live streams, limits read on every call).
 * @example type FeedRepository = RepositoryPort<FeedStore, 'subscribe'>; // publish(...) => MaybePromise<FeedMessage>
 */
export type RepositoryPort<S, InProcess extends keyof S = never> = {
  [K in keyof S]: K extends InProcess
    ? S[K]
    : S[K] extends (...args: infer A) => infer R
      ? (...args: A) => MaybePromise<Awaited<R>>
      : S[K];
};

/** Compiles only when the memory store `S` satisfies the port `P`. @example type _ = Implements<TokenRepository, TokenStore>; */
export type Implements<P, S extends P> = S;

export type { ClientRepository, ConnectionRepository, DeliveryLogRepository, ReceiverRepository, TokenRepository };
/** Idempotency records: the port the middleware already awaits only when given a promise. */
export type IdempotencyRepository = IdempotencyPort;
/** Rate-limit counters and their settings (settings stay in-process: a shared sandbox replicates them). */
export type RateLimitRepository = RateLimitPort;
/** Armed faults. */
export type FaultRepository = RepositoryPort<FaultStore>;
/** The sandbox clock's offset from real time (`now()` is computed in the process from it). */
export type ClockOffsetRepository = RepositoryPort<Pick<Clock, 'offset' | 'advance' | 'reset'>>;

/** Every memory store of state/ satisfies its port (a change that breaks one fails `tsc` here). */
export type MemoryStoresSatisfyTheirPorts = [
  Implements<ConnectionRepository, ReturnType<typeof createConnectionsStore>>,
  Implements<IdempotencyRepository, IdempotencyStore>,
  Implements<RateLimitRepository, RateLimitStore>,
  Implements<TokenRepository, ReturnType<typeof createTokenStore>>,
  Implements<ClientRepository, ReturnType<typeof createClientStore>>,
  Implements<ReceiverRepository, ReturnType<typeof createWebhookReceiverStore>>,
  Implements<DeliveryLogRepository, DeliveryLog>,
  Implements<FaultRepository, FaultStore>,
  Implements<ClockOffsetRepository, Clock>,
];
