// The deployment's start options: the Flask app's config.py values, and the legal choices of its stack a
// test run can switch (each left open by interface.md), with the defaults the team ships.

/** The deployment's start options (defaults follow the Flask app's config.py). */
export interface TamarindOptions {
  /** Flask-Limiter's limit per client, tenant and environment (default "1000 per minute"). */
  rateLimit?: number;
  windowMs?: number;
  /** Keycloak's access token lifespan in seconds (realm default: 300). */
  tokenLifetimeSeconds?: number;
  /** The audit log's default page size and order (newest first, like `order_by(id.desc())`). */
  auditDefaultLimit?: number;
  auditOldestFirst?: boolean;
  /** The audit chain's first link: `null` (default) or the SHA-256 of the tenant's name (a seeded genesis). */
  auditGenesis?: 'null' | 'seeded';
  /** Celery's autoretry: first backoff in ms (retry_backoff=1 s in production) and max_retries. */
  retryBackoffMs?: number;
  maxRetries?: number;
  /** How long the activation task takes to move a new connection to `active`. */
  activationDelayMs?: number;
  /** SSE framing: `event:` lines with the kind (default), or data-only messages with the kind inside the JSON. */
  sseEventField?: boolean;
  /** A connection without cursor gets the stream's whole retained history first (default: live only). */
  streamFromStart?: boolean;
  /** Queue latency: a delivery's first attempt waits this long (a busy Celery worker; default at once). */
  deliveryDelayMs?: number;
  /** Outbox relay: changes reach the stream this long after they were committed (default at once). */
  streamRelayMs?: number;
  /** Connexion's strict_validation: a query parameter the document does not declare is a 400. */
  strictValidation?: boolean;
  /** Service-Version as a required header parameter (default optional, the current version when absent). */
  serviceVersionRequired?: boolean;
  /** The audit page size's maximum, and whether a larger `limit` is refused (schema maximum) or clamped. */
  auditMaxLimit?: number;
  auditLimitStrict?: boolean;
  /** Redelivery re-queues the logged row itself (attempts grow, same delivery id) instead of logging a new row. */
  requeueSameRow?: boolean;
  /** Connexion renders `servers` as the absolute URL of the address asked (default: the relative base path). */
  absoluteServers?: boolean;
  /** The sandbox refuses production connections (real operation lives in the production deployment). */
  sandboxRefusesProduction?: boolean;
  /** Event ids in webhook bodies as uuid4 text (default the events table's integer id); no delivery header. */
  uuidEventIds?: boolean;
}

/** Every option with its default filled in. */
export function withDefaults(options: TamarindOptions): Required<TamarindOptions> {
  return {
    rateLimit: options.rateLimit ?? 1000,
    windowMs: options.windowMs ?? 60_000,
    tokenLifetimeSeconds: options.tokenLifetimeSeconds ?? 300,
    auditDefaultLimit: options.auditDefaultLimit ?? 50,
    auditOldestFirst: options.auditOldestFirst ?? false,
    auditGenesis: options.auditGenesis ?? 'null',
    retryBackoffMs: options.retryBackoffMs ?? 1000,
    maxRetries: options.maxRetries ?? 5,
    activationDelayMs: options.activationDelayMs ?? 150,
    sseEventField: options.sseEventField ?? true,
    streamFromStart: options.streamFromStart ?? false,
    deliveryDelayMs: options.deliveryDelayMs ?? 0,
    streamRelayMs: options.streamRelayMs ?? 0,
    strictValidation: options.strictValidation ?? false,
    serviceVersionRequired: options.serviceVersionRequired ?? false,
    auditMaxLimit: options.auditMaxLimit ?? 200,
    auditLimitStrict: options.auditLimitStrict ?? false,
    requeueSameRow: options.requeueSameRow ?? false,
    absoluteServers: options.absoluteServers ?? false,
    sandboxRefusesProduction: options.sandboxRefusesProduction ?? false,
    uuidEventIds: options.uuidEventIds ?? false,
  };
}
