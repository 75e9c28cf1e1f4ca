// The shared state of both listeners (one Vert.x instance, two HTTP servers on the same Router): the realm,
// the shared local maps (rate limits, idempotency), the event bus and counters, and the services fed by it.
import { AuditLog } from './audit.ts';
import { Realm } from './auth.ts';
import { ConnectionService } from './connections.ts';
import { AtomicCounters, EventBus } from './eventbus.ts';
import { IdempotencyStore } from './idempotency.ts';
import { RateLimiter } from './ratelimit.ts';
import { StatusStream } from './stream.ts';
import type { Settings } from './types.ts';
import { WebhookService } from './webhooks.ts';

export interface App {
  settings: Settings;
  realm: Realm;
  limiter: RateLimiter;
  idempotency: IdempotencyStore;
  bus: EventBus;
  counters: AtomicCounters;
  stream: StatusStream;
  audit: AuditLog;
  connections: ConnectionService;
  webhooks: WebhookService;
  /** Issued idempotency keys (POST /idempotency-keys), for the record only: any key of the pattern is accepted. */
  issuedKeys: Map<string, { operation: string; expiresAt: string }>;
}

/** The client of this deployment and its tenants: two released to it, one that exists but is not. */
export interface Seed {
  clientId: string;
  clientSecret: string;
  released: string[];
  foreign: string;
}

export function seed(app: App, s: Seed): void {
  for (const t of [...s.released, s.foreign]) app.realm.tenants.add(t);
  app.realm.clients.set(s.clientId, { clientId: s.clientId, secret: s.clientSecret, tenants: s.released });
}

/** Undeploys the verticle: timers of the lifecycle, deliveries and rate-limit sweeps end. */
export function closeApp(app: App): void {
  app.connections.close();
  app.webhooks.close();
  app.limiter.close();
}

export function createApp(settings: Settings): App {
  const bus = new EventBus();
  const counters = new AtomicCounters();
  return {
    settings,
    realm: new Realm(settings.tokenTtlSeconds),
    limiter: new RateLimiter(settings.rateLimit, settings.windowMs),
    idempotency: new IdempotencyStore(settings.idempotencyKeyTtlSeconds * 1000),
    bus,
    counters,
    stream: new StatusStream(bus, counters),
    audit: new AuditLog(settings.auditCheckpointEvery),
    connections: new ConnectionService(bus, settings),
    webhooks: new WebhookService(bus, settings),
    issuedKeys: new Map(),
  };
}
