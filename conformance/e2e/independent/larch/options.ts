// Start options of larch, the switches a Spring Boot team would put in application.yml.
export type LarchOptions = {
  /** Calls per fixed window per client, tenant and environment (default 1000). */
  rateLimit?: number;
  /** Length of the fixed rate-limit window in ms (default 60 000; tests use a few seconds). */
  windowMs?: number;
  /** Token lifetime in seconds (default 300). */
  tokenTtlSeconds?: number;
  /** Delay before a connection moves from PENDING to ACTIVE (default 300 ms). */
  activationMs?: number;
  /** Webhook retry schedule in ms after a failed attempt (default 2 s, 10 s, 60 s). */
  retryScheduleMs?: number[];
  /** Make Service-Version mandatory (428 is not in the table: a missing header answers 400). */
  serviceVersionRequired?: boolean;
  /** Leave the signing key out of a replayed webhook registration. */
  redactKeyOnReplay?: boolean;
  /** List the audit log oldest first (still paged by page/size with Link rel="next"). */
  auditOldestFirst?: boolean;
  /** Also store business refusals (404, 409 capability_denied) under their key and replay them, marked replayed. */
  storeRefusals?: boolean;
  /** End every stream after this many ms, as Spring MVC's async request timeout does (0: never). */
  streamTimeoutMs?: number;
  /** A sandbox access may not create production connections (403) nor be allowed production capabilities. */
  productionForbidden?: boolean;
  /** Webhook deliveries leave through an outbox relayed this many ms after the change (default 0). */
  relayDelayMs?: number;
  /** Bind a Set<String> ("a set of capabilities"): duplicates in a creation are stored once, first order kept. */
  capabilitySet?: boolean;
  /** Pages as Spring HATEOAS PagedModel (`_embedded`, `_links`, `page`) instead of Spring Data's `content`. */
  hal?: boolean;
  /** Pages as Jackson serialises Spring Data's PageImpl (`content`, `pageable`, `totalPages`, …, no links). */
  pageImpl?: boolean;
  /** Ports (0: any free port). */
  port?: number;
  altPort?: number;
};

export type LarchConfig = Required<Omit<LarchOptions, 'port' | 'altPort'>>;

export function resolveConfig(o: LarchOptions = {}): LarchConfig {
  return {
    rateLimit: o.rateLimit ?? 1000,
    windowMs: o.windowMs ?? 60_000,
    tokenTtlSeconds: o.tokenTtlSeconds ?? 300,
    activationMs: o.activationMs ?? 300,
    retryScheduleMs: o.retryScheduleMs ?? [2000, 10_000, 60_000],
    serviceVersionRequired: o.serviceVersionRequired ?? false,
    redactKeyOnReplay: o.redactKeyOnReplay ?? false,
    auditOldestFirst: o.auditOldestFirst ?? false,
    storeRefusals: o.storeRefusals ?? false,
    streamTimeoutMs: o.streamTimeoutMs ?? 0,
    productionForbidden: o.productionForbidden ?? false,
    relayDelayMs: o.relayDelayMs ?? 0,
    capabilitySet: o.capabilitySet ?? false,
    hal: o.hal ?? false,
    pageImpl: o.pageImpl ?? false,
  };
}

export const VERSION = '2026-07-01';
export const VERSIONS = ['2026-07-01', '2026-06-12'];
export const BASE = '/api/public/v1';
export const TOKEN_PATH = '/realms/larch/protocol/openid-connect/token';
export const SIGNATURE_HEADER = 'X-Larch-Signature';
export const DELIVERY_ID_HEADER = 'X-Larch-Delivery-Id';
export const EVENT_NAMES = ['CONNECTION_CREATED', 'CONNECTION_STATE_CHANGED', 'order.created', 'order.paid'];
export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];
export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;
