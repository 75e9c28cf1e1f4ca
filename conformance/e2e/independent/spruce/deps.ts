// What a handler may reach: the stores of one deployment (shared by both base addresses) and its options.
import type { AuditLog } from './audit.ts';
import type { Authority } from './auth.ts';
import type { ConnectionStore } from './connections.ts';
import type { IdempotencyStore } from './idempotency.ts';
import type { StatusStream } from './stream.ts';
import type { WebhookService } from './webhooks.ts';

export interface SpruceOptions {
  /** Calls per window and access/tenant/environment (default 1200). */
  rateLimit?: number;
  /** Length of the rate-limit window (default 60 s). */
  windowMs?: number;
  /** How long a new connection takes to show in GET /connections (cross-region read lag, default 400 ms). */
  listLagMs?: number;
  /** Accepted -> Succeeded after this long (default 300 ms). */
  activationMs?: number;
  tokenTtlSeconds?: number;
  /** A replayed webhook registration shows the signing key as null: it is issued once (default true). */
  redactSecretOnReplay?: boolean;
  /** Refuse authenticated calls without Service-Version / api-version (400). */
  serviceVersionRequired?: boolean;
  deliveryDelayMs?: number;
  retryDelaysMs?: number[];
  /** The audit log lists oldest first (Cosmos ORDER BY _ts ASC), paged by nextLink. */
  auditOldestFirst?: boolean;
  /** Stream messages and webhook events leave through the change feed this long after the write (default 0). */
  changeFeedDelayMs?: number;
  /** Webhook events of one receiver are sent as CloudEvents batches collected over this window (0: one by one). */
  batchWindowMs?: number;
  /** A missing x-service-tenant is refused 403 forbidden instead of 400. */
  missingTenantForbidden?: boolean;
  /** Times written as .NET DateTimeOffset does: +00:00 instead of Z. */
  offsetTimes?: boolean;
  /** NestJS forbidNonWhitelisted: an unknown body field is refused (400) instead of stripped. */
  forbidUnknownFields?: boolean;
  /** Stream keep-alive comments (default 15 s). */
  heartbeatMs?: number;
  /** The gateway ends a stream after this long (0: never); clients resume with Last-Event-ID. */
  streamMaxMs?: number;
  /** Stream data pretty-printed over several data: lines. */
  multiLineData?: boolean;
  /** CloudEvents binary mode: the event's attributes in ce-* headers, the body is its data. */
  binaryWebhooks?: boolean;
  /** Event Grid's handshake: a new receiver first gets a signed subscription-validation event. */
  validationPing?: boolean;
}

export interface Deps {
  options: Required<SpruceOptions>;
  authority: Authority;
  idem: IdempotencyStore;
  audit: AuditLog;
  stream: StatusStream;
  webhooks: WebhookService;
  connections: ConnectionStore;
}

export function withDefaults(o: SpruceOptions = {}): Required<SpruceOptions> {
  return {
    rateLimit: o.rateLimit ?? 1200,
    windowMs: o.windowMs ?? 60_000,
    listLagMs: o.listLagMs ?? 400,
    activationMs: o.activationMs ?? 300,
    tokenTtlSeconds: o.tokenTtlSeconds ?? 3599,
    redactSecretOnReplay: o.redactSecretOnReplay ?? true,
    serviceVersionRequired: o.serviceVersionRequired ?? false,
    deliveryDelayMs: o.deliveryDelayMs ?? 25,
    retryDelaysMs: o.retryDelaysMs ?? [2000, 10_000],
    auditOldestFirst: o.auditOldestFirst ?? false,
    changeFeedDelayMs: o.changeFeedDelayMs ?? 0,
    batchWindowMs: o.batchWindowMs ?? 0,
    missingTenantForbidden: o.missingTenantForbidden ?? false,
    offsetTimes: o.offsetTimes ?? false,
    forbidUnknownFields: o.forbidUnknownFields ?? false,
    heartbeatMs: o.heartbeatMs ?? 15_000,
    streamMaxMs: o.streamMaxMs ?? 0,
    multiLineData: o.multiLineData ?? false,
    binaryWebhooks: o.binaryWebhooks ?? false,
    validationPing: o.validationPing ?? false,
  };
}
