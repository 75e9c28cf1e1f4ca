import type { Environment } from '../contract/environment.ts';
import type { FixtureSet } from '../contract/fixtures.ts';
import { AUDIT_DEFAULTS, STREAM_DEFAULTS, WEBHOOK_DEFAULTS } from '../contract/simulator-defaults.ts';
import { connectDomainEvents } from '../events/fan-out.ts';
import { tenantFeed } from '../events/feed.ts';
import { type Clock, createClock } from '../lib/clock.ts';
import { createTimeline, type Timeline } from '../lib/timeline.ts';
import { type AuditService, createAuditService } from '../services/audit-service.ts';
import { createAuditSigner } from '../services/audit-signer.ts';
import { type ClientService, createClientService } from '../services/client-service.ts';
import { type ClockService, createClockService } from '../services/clock-service.ts';
import { type ConnectionService, createConnectionService } from '../services/connection-service.ts';
import { createFaultService, type FaultService } from '../services/fault-service.ts';
import { createFeedService, type FeedService } from '../services/feed-service.ts';
import {
  createIdempotencyService,
  type IdempotencyOptions,
  type IdempotencyPort,
} from '../services/idempotency-service.ts';
import { createRateLimitService, type RateLimitPort, type RateLimitSettings } from '../services/rate-limit-service.ts';
import { createReceiverService, type ReceiverService } from '../services/receiver-service.ts';
import { createTokenService, type TokenService } from '../services/token-service.ts';
import { createAuditStore } from '../state/audit-store.ts';
import { type CatalogStore, createCatalogStore } from '../state/catalog-store.ts';
import { createClientStore } from '../state/clients.ts';
import { createClockOffsetStore } from '../state/clock-offset-store.ts';
import { createConnectionsStore } from '../state/connections-store.ts';
import { createDeliveryLog, type Delivery } from '../state/delivery-log.ts';
import { createEventBus, type EventBus } from '../state/domain-events.ts';
import { createFaultStore } from '../state/fault-store.ts';
import { createFeedStore } from '../state/feed-store.ts';
import { createIdempotencyStore } from '../state/idempotency-store.ts';
import { durableAudit } from '../state/persistence/durable-audit.ts';
import { durableClockOffset } from '../state/persistence/durable-clock.ts';
import { durableConnections } from '../state/persistence/durable-connections.ts';
import { durableDeliveries } from '../state/persistence/durable-deliveries.ts';
import { durableFeeds } from '../state/persistence/durable-feeds.ts';
import { durableIdempotency } from '../state/persistence/durable-idempotency.ts';
import { durableReceivers } from '../state/persistence/durable-receivers.ts';
import { durableTokens } from '../state/persistence/durable-tokens.ts';
import { memoryOnly, type Persistence } from '../state/persistence/persistence.ts';
import type { MaybePromise } from '../state/ports/maybe-promise.ts';
import { createRateLimitStore } from '../state/rate-limit-store.ts';
import { createTokenStore } from '../state/token-store.ts';
import { createWebhookReceiverStore, type ReceiverRecord } from '../state/webhook-receivers.ts';
import {
  type AttemptCoordinator,
  createDispatcher,
  type Dispatcher,
  type DispatcherOptions,
} from '../webhooks/dispatcher.ts';
import { undiciFetch } from '../webhooks/undici-fetch.ts';
import { stateDigest } from './state-digest.ts';

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
  /** The sandbox clock: offset kept in its repository (written through with a durable persistence). */
  clock: ClockService;
  /** Callbacks at times of the sandbox clock (lifecycle transitions, the end of a stream's access). */
  timeline: Timeline;
  events: EventBus;
  catalog: CatalogStore;
  clients: ClientService;
  tokens: TokenService;
  connections: ConnectionService;
  idempotency: IdempotencyPort;
  audit: AuditService;
  feeds: FeedService;
  receivers: ReceiverService;
  dispatcher: Dispatcher;
  faults: FaultService;
  persistence: Persistence;
  /**
   * With a data dir: runs one idempotent call's writes (its records, audit entry, stream message and its
   * key's outcome) as one transaction, so a kill -9 keeps all of them or none. Undefined in memory (nothing
   * to commit) and in a shared sandbox (a call and its key are one entry of the operation log there).
   */
  commitTogether?: <T>(writes: () => T) => T;
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
  // Every store is a plain repository; the durable<Store> decorators write it through to `persistence`
  // (the SQLite data dir, or a shared sandbox's snapshot persistence) and answer it as is in memory.
  const clock = createClockService({
    clock: opts.clock ?? createClock(),
    repository: durableClockOffset(createClockOffsetStore(), persistence),
  });
  const timeline = createTimeline(clock);
  const catalog = createCatalogStore();
  const events = createEventBus();
  const retention = opts.streamRetention ?? STREAM_DEFAULTS.retention;
  // The status stream's feeds (ids, retention, resumption, subscribers) over their repository.
  const feeds = createFeedService({
    repository: durableFeeds(createFeedStore(), persistence, retention),
    clock,
    retention,
  });
  // The audit chains (hashing, head, pages and their proofs) over their repository.
  const maxEntries = AUDIT_DEFAULTS.maxEntriesPerTenant;
  const audit = createAuditService({
    repository: durableAudit(createAuditStore(), persistence, maxEntries),
    clock,
    maxEntries,
    sign: createAuditSigner(),
  });
  // Webhook receivers (the limit per tenant, secrets, webhook.created) over their repository.
  const receivers = createReceiverService({
    repository: durableReceivers(createWebhookReceiverStore(), persistence),
    clock,
    events,
    signatureHeader: opts.webhooks?.signatureHeader ?? WEBHOOK_DEFAULTS.signatureHeader,
    ...(opts.maxReceiversPerTenant === undefined ? {} : { maxPerTenant: opts.maxReceiversPerTenant }),
  });
  // Armed faults (matching, uses, skew) over their repository; durations run on the sandbox clock (real
  // time plus what the control plane advanced), so advancing the clock past a fault's end ends it.
  const faults = createFaultService({ repository: createFaultStore(), now: () => clock.now() });
  const deliveryLog = durableDeliveries(createDeliveryLog(), persistence);
  const dispatcher = createDispatcher({
    // The undici package's own fetch: MSW in the same process never intercepts real deliveries.
    fetch: undiciFetch,
    ...opts.webhooks,
    clock,
    signatureSkewMs: (receiverId) => {
      const ms = state.faults.takeSignatureSkew(receiverId);
      // An attempt is signed synchronously. Faults are kept in each process's memory (a shared sandbox
      // replicates them through its log), so the skew is a value; a fault repository answering promises
      // would need the signer to wait first.
      return typeof ms === 'number' ? ms : 0;
    },
    ...(opts.shared ? { coordinator: opts.shared.coordinator(opts.webhooks?.timeoutMs) } : {}),
    log: deliveryLog,
    onFailure: (d) => {
      const published = feeds.publish(tenantFeed(d.tenant), 'webhook.delivery_failed', {
        deliveryId: d.id,
        webhookId: d.receiverId,
        eventId: d.eventId,
        eventType: d.eventType,
        error: d.error,
      });
      // A feed store that failed to answer loses this notice, never the delivery's record.
      if (published instanceof Promise) published.catch(() => {});
    },
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
      repository: durableConnections(createConnectionsStore(), persistence),
      clock,
      events,
      activationDelayMs: opts.activationDelayMs,
      // Shared: transitions fall due through the operation log, never on one replica's read or timer.
      ...(opts.shared ? { applyDueOnRead: false } : { timeline }),
    }),
    // Keys, fingerprints, in-flight waits, expiry and bounds over the records' repository (written through with a data dir).
    idempotency: opts.shared
      ? opts.shared.idempotency(clock)
      : createIdempotencyService({
          repository: durableIdempotency(createIdempotencyStore(), persistence),
          clock,
          ...(opts.idempotency ? { options: opts.idempotency } : {}),
        }),
    audit,
    feeds,
    receivers,
    dispatcher,
    faults,
    persistence,
    ...(persistence.durable && !opts.shared
      ? { commitTogether: <T>(writes: () => T): T => persistence.transaction(writes) }
      : {}),
    rateLimits: opts.shared
      ? opts.shared.rateLimits(clock, opts.rateLimit)
      : createRateLimitService({
          repository: createRateLimitStore(),
          clock,
          ...(opts.rateLimit === undefined ? {} : { initial: opts.rateLimit }),
        }),
    tenants: new Map(opts.fixtures.tenants.map((t) => [t.id, t])),
    activationDelayMs: opts.activationDelayMs,
    ready:
      clock.ready instanceof Promise
        ? Promise.all([catalog.load(opts.fixtures), clock.ready]).then(() => undefined)
        : catalog.load(opts.fixtures),
    snapshot: () => stateDigest(state),
    async reset() {
      await state.connections.clear();
      await state.idempotency.clear();
      await state.audit.clear();
      await state.feeds.clear();
      await state.receivers.clear();
      await state.dispatcher.log.clear();
      await state.faults.clear();
      await state.rateLimits.clear();
      await clock.reset();
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
  const resumeAll = (pending: readonly Delivery[]) => {
    for (const d of pending) {
      const resume = (r: ReceiverRecord | undefined) => {
        if (r) dispatcher.resume(d, { id: r.id, url: r.url, secret: r.secret, tenant: r.tenant });
      };
      const found = receivers.get(d.tenant, d.receiverId);
      if (found instanceof Promise) found.then(resume, () => {});
      else resume(found);
    }
  };
  const { pendingAtStart } = deliveryLog;
  if (pendingAtStart instanceof Promise) pendingAtStart.then(resumeAll, () => {});
  else resumeAll(pendingAtStart);
  return state;
}
