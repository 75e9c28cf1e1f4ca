// The repository ports of the stores under state/. The stores that live beside their features (feeds,
// audit chains, OAuth codes and refresh families, the delivery queue) have theirs in
// app/feature-ports.ts: state/ imports no feature, not even a type.
import type { createConnectionsStore } from '../connections-store.ts';
import type { ClientRegistry } from '../clients.ts';
import type { DeliveryLog } from '../delivery-log.ts';
import type { DeliveryLogRepository } from './deliveries.ts';
import type { FaultStore } from '../fault-store.ts';
import type { IdempotencyPort, IdempotencyStore } from '../idempotency-store.ts';
import type { RateLimitPort, RateLimitStore } from '../rate-limit-store.ts';
import type { TokenStore } from '../token-store.ts';
import type { createWebhookReceiverStore } from '../webhook-receivers.ts';
import type { ConnectionRepository } from './connections.ts';
import type { ReceiverRepository } from './receivers.ts';
import type { ClockOffsetRepository } from './clock-offset.ts';
import type { ClockOffsetStore } from '../clock-offset-store.ts';
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

export type { ClockOffsetRepository, ConnectionRepository, DeliveryLogRepository, ReceiverRepository };
/** Idempotency records: the port the middleware already awaits only when given a promise. */
export type IdempotencyRepository = IdempotencyPort;
/** Rate-limit counters and their settings (settings stay in-process: a shared sandbox replicates them). */
export type RateLimitRepository = RateLimitPort;
/** Access tokens and their grants (client, family); `watch` ends a live stream when its token goes. */
export type TokenRepository = RepositoryPort<TokenStore, 'watch'>;
/** OAuth clients of the fixtures, with their secret hashes. */
export type ClientRepository = RepositoryPort<ClientRegistry>;
/** Armed faults. */
export type FaultRepository = RepositoryPort<FaultStore>;

/** Every memory store of state/ satisfies its port (a change that breaks one fails `tsc` here). */
export type MemoryStoresSatisfyTheirPorts = [
  Implements<ConnectionRepository, ReturnType<typeof createConnectionsStore>>,
  Implements<IdempotencyRepository, IdempotencyStore>,
  Implements<RateLimitRepository, RateLimitStore>,
  Implements<TokenRepository, TokenStore>,
  Implements<ClientRepository, ClientRegistry>,
  Implements<ReceiverRepository, ReturnType<typeof createWebhookReceiverStore>>,
  Implements<DeliveryLogRepository, DeliveryLog>,
  Implements<FaultRepository, FaultStore>,
  Implements<ClockOffsetRepository, ClockOffsetStore>,
];
