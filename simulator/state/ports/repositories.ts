// The repository ports of the stores, one file each in state/ports/ (OAuth codes and refresh families too:
// their services stand on them; app/feature-ports.ts checks their memory stores, which live beside the
// OAuth server). state/ imports no feature, not even a type.
import type { createConnectionsStore } from '../connections-store.ts';
import type { createClientStore } from '../clients.ts';
import type { DeliveryLog } from '../delivery-log.ts';
import type { DeliveryLogRepository } from './deliveries.ts';
import type { FaultStore } from '../fault-store.ts';
import type { IdempotencyStore } from '../idempotency-store.ts';
import type { RateLimitStore } from '../rate-limit-store.ts';
import type { createTokenStore } from '../token-store.ts';
import type { createWebhookReceiverStore } from '../webhook-receivers.ts';
import type { AuditStore } from '../audit-store.ts';
import type { createDeliveryQueueStore } from '../delivery-queue-store.ts';
import type { FeedStore } from '../feed-store.ts';
import type { AuditRepository } from './audit.ts';
import type { ConnectionRepository } from './connections.ts';
import type { DeliveryQueueRepository } from './delivery-queue.ts';
import type { FaultRepository } from './faults.ts';
import type { FeedRepository } from './feeds.ts';
import type { IdempotencyRepository } from './idempotency.ts';
import type { RateLimitRepository } from './rate-limits.ts';
import type { ReceiverRepository } from './receivers.ts';
import type { ClockOffsetRepository } from './clock-offset.ts';
import type { ClockOffsetStore } from '../clock-offset-store.ts';
import type { TokenRepository } from './tokens.ts';
import type { ClientRepository } from './clients.ts';
import type { MaybePromise } from './maybe-promise.ts';

/**
 * The repository port of a store: its memory interface with every method free to answer a promise
 * (an adapter across the network waits), except the `InProcess` members, which stay in the process
 * whatever the adapter (subscriptions and watches of live streams, limits read on every call).
 * @example type TokenRepository = RepositoryPort<TokenStore, 'watch'>; // issue(...) => MaybePromise<...>, watch stays as it is
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

export type {
  AuditRepository,
  ClientRepository,
  ClockOffsetRepository,
  ConnectionRepository,
  DeliveryLogRepository,
  DeliveryQueueRepository,
  FaultRepository,
  FeedRepository,
  IdempotencyRepository,
  RateLimitRepository,
  ReceiverRepository,
  TokenRepository,
};

/** Every memory store of state/ satisfies its port (a change that breaks one fails `tsc` here). */
export type MemoryStoresSatisfyTheirPorts = [
  Implements<ConnectionRepository, ReturnType<typeof createConnectionsStore>>,
  Implements<FeedRepository, FeedStore>,
  Implements<AuditRepository, AuditStore>,
  // In-process as a whole (its jobs hold timers and aborts of requests in flight): see ports/delivery-queue.ts.
  Implements<DeliveryQueueRepository, ReturnType<typeof createDeliveryQueueStore>>,
  Implements<IdempotencyRepository, IdempotencyStore>,
  Implements<RateLimitRepository, RateLimitStore>,
  Implements<TokenRepository, ReturnType<typeof createTokenStore>>,
  Implements<ClientRepository, ReturnType<typeof createClientStore>>,
  Implements<ReceiverRepository, ReturnType<typeof createWebhookReceiverStore>>,
  Implements<DeliveryLogRepository, DeliveryLog>,
  Implements<FaultRepository, FaultStore>,
  Implements<ClockOffsetRepository, ClockOffsetStore>,
];
