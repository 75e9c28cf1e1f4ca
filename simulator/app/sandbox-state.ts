import { undiciFetch } from '../webhooks/undici-fetch.ts';
import { createAuditLog, type AuditLog } from '../audit/hash-chain.ts';
import type { Connection } from '../contract/connections.ts';
import type { Environment } from '../contract/environment.ts';
import type { FixtureSet } from '../contract/fixtures.ts';
import { AUDIT_DEFAULTS, STREAM_DEFAULTS, WEBHOOK_DEFAULTS } from '../contract/simulator-defaults.ts';
import { connectDomainEvents } from '../events/fan-out.ts';
import { createFeedStore, tenantFeed, type FeedStore } from '../events/feed.ts';
import {
  type AttemptCoordinator,
  createDispatcher,
  type Dispatcher,
  type DispatcherOptions,
} from '../webhooks/dispatcher.ts';
import { createCatalogStore, type CatalogStore } from '../state/catalog-store.ts';
import { createClientStore } from '../state/clients.ts';
import { type ClientService, createClientService } from '../services/client-service.ts';
import { createClock, type Clock } from '../lib/clock.ts';
import { durableClock } from '../state/persistence/durable-clock.ts';
import { createConnectionsStore } from '../state/connections-store.ts';
import { type ConnectionService, createConnectionService } from '../services/connection-service.ts';
import { andThen, type MaybePromise } from '../state/ports/maybe-promise.ts';
import { createDeliveryLog } from '../state/delivery-log.ts';
import { createEventBus, type EventBus } from '../state/domain-events.ts';
import { createFaultStore, type FaultStore } from '../state/fault-store.ts';
import { createIdempotencyStore, type IdempotencyOptions, type IdempotencyPort } from '../state/idempotency-store.ts';
import { durableFeeds } from '../events/durable-feeds.ts';
import { durableAudit, durableDeliveries } from '../state/persistence/durable-stores.ts';
import { memoryOnly, type Persistence } from '../state/persistence/persistence.ts';
import { createRateLimitStore, type RateLimitPort, type RateLimitSettings } from '../state/rate-limit-store.ts';
import { createTimeline, type Timeline } from '../lib/timeline.ts';
import { createTokenStore } from '../state/token-store.ts';
import { durableTokens } from '../state/persistence/durable-tokens.ts';
import { createTokenService, type TokenService } from '../services/token-service.ts';
import { createWebhookReceiverStore, type ReceiverRecord } from '../state/webhook-receivers.ts';
import { createReceiverService, type ReceiverService } from '../services/receiver-service.ts';

/** Webhook delivery settings (defaults: WEBHOOK_DEFAULTS). */
export type WebhookOptions = Pick<
  DispatcherOptions,
  | 'timeoutMs'
  | 'maxAttempts'
  | 'baseDelayMs'
  | 'jitterRatio'
  | 'maxDelayMs'
  | 'maxQueue'
  | 'signatureHeader'
  | 'fetch'
  | 'scheduler'
  | 'sign'
>;

export interface StateOptions {
  fixtures: FixtureSet;
  environment: Environment;
  tokenTtlSeconds: number;
  /** Access tokens kept per client (default TOKEN_DEFAULTS.maxPerClient). */
  maxTokensPerClient?: number;
  /** Delay before a new connection turns from pending to active (ms; 0 = active at once). */
  activationDelayMs: number;
  idempotency?: Partial<IdempotencyOptions>;
  clock?: Clock;
  /** Where stores write through (default: memory only). */
  persistence?: Persistence;
  /** Rate limit per access, tenant and environment (default RATE_LIMIT_PRESETS.default); false = off. */
  rateLimit?: RateLimitSettings | false;
  /** Messages kept per stream feed for resumption (default 10,000). */
  streamRetention?: number;
  webhooks?: WebhookOptions;
  /** Receivers per tenant (default WEBHOOK_DEFAULTS.maxReceiversPerTenant, 100). */
  maxReceiversPerTenant?: number;
  /** A shared sandbox (several replicas on one Redis): its idempotency records, rate limits and delivery leases. */
  shared?: SharedStores;
}

/** What a shared sandbox keeps in Redis itself rather than in each replica's memory. */
export interface SharedStores {
  idempotency(clock: Clock): IdempotencyPort;
  rateLimits(clock: Clock, initial: RateLimitSettings | false | undefined): RateLimitPort;
  coordinator(timeoutMs: number | undefined): AttemptCoordinator;
}

/**
 * Everything the simulator remembers, reached only through these stores so that a persistent
 * store can replace the in-memory default without touching handlers.
 */
export interface SandboxState {
  fixtures: FixtureSet;
  environment: Environment;
  clock: Clock;
  /** Callbacks at times of the sandbox clock (lifecycle transitions, the end of a stream's access). */
  timeline: Timeline;
  events: EventBus;
  catalog: CatalogStore;
  clients: ClientService;
  tokens: TokenService;
  connections: ConnectionService;
  idempotency: IdempotencyPort;
  audit: AuditLog;
  feeds: FeedStore;
  receivers: ReceiverService;
  dispatcher: Dispatcher;
  faults: FaultStore;
  persistence: Persistence;
  /** Rate-limit counters and their settings (changeable at run time). */
  rateLimits: RateLimitPort;
  tenants: ReadonlyMap<string, { id: string; name: string }>;
  activationDelayMs: number;
  ready: Promise<void>;
  /** A digest of all tenant data, to prove that a rejected request changed nothing (at once from memory). */
  snapshot(): MaybePromise<string>;
  /** Back to the fixtures: tenant data, keys, receivers, deliveries, audit, retained stream messages and faults dropped; clock back to real time. Tokens stay valid. */
  reset(): Promise<void>;
  /** Stops timers and webhook retries and closes the database. */
  close(): Promise<void>;
}

export function createSandboxState(opts: StateOptions): SandboxState {
  const persistence = opts.persistence ?? memoryOnly;
  const clock = durableClock(opts.clock ?? createClock(), persistence);
  const timeline = createTimeline(clock);
  const catalog = createCatalogStore();
  const events = createEventBus();
  const retention = opts.streamRetention ?? STREAM_DEFAULTS.retention;
  const feeds = durableFeeds(createFeedStore({ retention, clock }), persistence, retention);
  const audit = durableAudit(createAuditLog({ clock }), persistence, AUDIT_DEFAULTS.maxEntriesPerTenant);
  // Webhook receivers (the limit per tenant, secrets, webhook.created) over their repository.
  const receivers = createReceiverService({
    repository: createWebhookReceiverStore(persistence),
    clock,
    events,
    signatureHeader: opts.webhooks?.signatureHeader ?? WEBHOOK_DEFAULTS.signatureHeader,
    ...(opts.maxReceiversPerTenant === undefined ? {} : { maxPerTenant: opts.maxReceiversPerTenant }),
  });
  const faults = createFaultStore();
  const deliveryLog = durableDeliveries(createDeliveryLog(), persistence);
  const dispatcher = createDispatcher({
    // The undici package's own fetch: MSW in the same process never intercepts real deliveries.
    fetch: undiciFetch,
    ...opts.webhooks,
    clock,
    signatureSkewMs: (receiverId) => state.faults.takeSignatureSkew(receiverId),
    ...(opts.shared ? { coordinator: opts.shared.coordinator(opts.webhooks?.timeoutMs) } : {}),
    log: deliveryLog,
    onFailure: (d) =>
      feeds.publish(tenantFeed(d.tenant), 'webhook.delivery_failed', {
        deliveryId: d.id,
        webhookId: d.receiverId,
        eventId: d.eventId,
        eventType: d.eventType,
        error: d.error,
      }),
  });
  connectDomainEvents({ bus: events, audit, feeds, receivers, dispatcher });
  const state: SandboxState = {
    fixtures: opts.fixtures,
    environment: opts.environment,
    clock,
    timeline,
    events,
    catalog,
    clients: createClientService({ repository: createClientStore(), clients: opts.fixtures.clients }),
    // Tokens (lifetime, cap per client, hashing, revocation, watches) over their repository.
    tokens: createTokenService({
      repository: durableTokens(createTokenStore(), persistence),
      clock,
      defaultTtlSeconds: opts.tokenTtlSeconds,
      ...(opts.maxTokensPerClient === undefined ? {} : { maxPerClient: opts.maxTokensPerClient }),
    }),
    // The connection domain (lifecycle, timers, events) over its repository (records, indexes, due queue).
    connections: createConnectionService({
      repository: createConnectionsStore({ persistence }),
      clock,
      events,
      activationDelayMs: opts.activationDelayMs,
      // Shared: transitions fall due through the operation log, never on one replica's read or timer.
      ...(opts.shared ? { applyDueOnRead: false } : { timeline }),
    }),
    idempotency: opts.shared
      ? opts.shared.idempotency(clock)
      : createIdempotencyStore(clock, opts.idempotency, persistence),
    audit,
    feeds,
    receivers,
    dispatcher,
    faults,
    persistence,
    rateLimits: opts.shared
      ? opts.shared.rateLimits(clock, opts.rateLimit)
      : createRateLimitStore(clock, opts.rateLimit),
    tenants: new Map(opts.fixtures.tenants.map((t) => [t.id, t])),
    activationDelayMs: opts.activationDelayMs,
    ready: catalog.load(opts.fixtures),
    snapshot() {
      const tenants = [...state.tenants.keys()];
      const lists = tenants.map((t) => state.connections.list(t));
      const connections = lists.some((l) => l instanceof Promise) ? Promise.all(lists) : (lists as Connection[][]);
      return andThen(connections, (connections) =>
        JSON.stringify({
          connections,
          idempotency: state.idempotency.size(),
          audit: tenants.map((t) => state.audit.head(t)),
          feeds: state.feeds.keys().map((k) => [k, state.feeds.lastId(k)]),
          receivers: state.receivers.count(),
          faults: state.faults.list(),
          catalog: state.catalog.generation(),
        }),
      );
    },
    async reset() {
      await state.connections.clear();
      state.idempotency.clear();
      state.audit.clear();
      state.feeds.clear();
      state.receivers.clear();
      await state.dispatcher.log.clear();
      state.faults.clear();
      state.rateLimits.clear();
      clock.reset();
      await catalog.load(opts.fixtures);
    },
    async close() {
      timeline.close();
      await dispatcher.close();
      persistence.close();
    },
  };
  // Deliveries cut by the last shutdown or kill -9 go out again instead of staying pending forever.
  // Only now: an attempt is signed as it starts, and the signature faults are read through `state`.
  for (const d of deliveryLog.pendingAtStart) {
    const resume = (r: ReceiverRecord | undefined) => {
      if (r) dispatcher.resume(d, { id: r.id, url: r.url, secret: r.secret, tenant: r.tenant });
    };
    const found = receivers.get(d.tenant, d.receiverId);
    if (found instanceof Promise) found.then(resume, () => {});
    else resume(found);
  }
  return state;
}
