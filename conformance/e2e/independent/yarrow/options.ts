// What a yarrow deployment can be started with: the defaults a Symfony team would ship, plus switches for the
// other legal choices (read from YARROW_* variables by start.ts).
import { randomBytes } from 'node:crypto';

export interface YarrowOptions {
  /** Calls per fixed window, per client, tenant and environment (Symfony RateLimiter "fixed_window"). */
  rateLimit?: number;
  windowMs?: number;
  /** Lifetime of a LexikJWT access token, seconds. */
  tokenTtl?: number;
  /** Service-Version mandatory (428 is not an interface status for this: a missing header answers 400). */
  serviceVersionRequired?: boolean;
  /** Audit log newest first instead of API Platform's default ascending order. */
  auditNewestFirst?: boolean;
  /** Delay of the Messenger worker before it takes a queued delivery (an async transport), ms. */
  messengerDelayMs?: number;
  /** Time until a provisioned connection becomes active, ms. */
  activationMs?: number;
  /** Page size of the delivery log (API Platform's itemsPerPage; pages linked by Link rel="next"). */
  deliveryPageSize?: number;
  /** A replayed webhook registration shows the signing key again (the same response) instead of leaving it out. */
  replaySecret?: boolean;
  /** An unknown connector on POST /capabilities is decided "not allowed" instead of 404 not_found. */
  unknownConnectorDecided?: boolean;
  /** Failure envelopes of validation errors also list error.violations [{propertyPath, message}]. */
  violationsField?: boolean;
  /** Audit entries name their links hash/prevHash instead of digest/previousDigest. */
  auditHashNames?: boolean;
  /** Refused creations (400, 404, 409 capability_denied) are stored under their key and answered again. */
  storeRefusals?: boolean;
  /** GET /connections lists the newest first. */
  connectionsNewestFirst?: boolean;
  port?: number;
  altPort?: number;
}

export interface ResolvedOptions {
  rateLimit: number;
  windowMs: number;
  tokenTtl: number;
  serviceVersionRequired: boolean;
  auditNewestFirst: boolean;
  messengerDelayMs: number;
  activationMs: number;
  deliveryPageSize: number;
  replaySecret: boolean;
  unknownConnectorDecided: boolean;
  violationsField: boolean;
  auditHashNames: boolean;
  storeRefusals: boolean;
  connectionsNewestFirst: boolean;
  jwtKey: Buffer;
}

export function resolveOptions(o: YarrowOptions = {}): ResolvedOptions {
  return {
    rateLimit: o.rateLimit ?? 600,
    windowMs: o.windowMs ?? 60_000,
    tokenTtl: o.tokenTtl ?? 3600,
    serviceVersionRequired: o.serviceVersionRequired ?? false,
    auditNewestFirst: o.auditNewestFirst ?? false,
    messengerDelayMs: o.messengerDelayMs ?? 50,
    activationMs: o.activationMs ?? 400,
    deliveryPageSize: o.deliveryPageSize ?? 30,
    replaySecret: o.replaySecret ?? false,
    unknownConnectorDecided: o.unknownConnectorDecided ?? false,
    violationsField: o.violationsField ?? false,
    auditHashNames: o.auditHashNames ?? false,
    storeRefusals: o.storeRefusals ?? false,
    connectionsNewestFirst: o.connectionsNewestFirst ?? false,
    jwtKey: randomBytes(32),
  };
}

/** Reads the YARROW_* switches for the start script. */
export function optionsFromEnv(env: NodeJS.ProcessEnv): YarrowOptions {
  const num = (v: string | undefined) => (v === undefined || v === '' ? undefined : Number(v));
  return {
    rateLimit: num(env.YARROW_RATE_LIMIT),
    windowMs: num(env.YARROW_WINDOW_MS),
    tokenTtl: num(env.YARROW_TOKEN_TTL),
    serviceVersionRequired: env.YARROW_SERVICE_VERSION_REQUIRED === '1',
    auditNewestFirst: env.YARROW_AUDIT_NEWEST_FIRST === '1',
    messengerDelayMs: num(env.YARROW_MESSENGER_DELAY_MS),
    activationMs: num(env.YARROW_ACTIVATION_MS),
    deliveryPageSize: num(env.YARROW_DELIVERY_PAGE_SIZE),
    replaySecret: env.YARROW_REPLAY_SECRET === '1',
    unknownConnectorDecided: env.YARROW_UNKNOWN_CONNECTOR_DECIDED === '1',
    violationsField: env.YARROW_VIOLATIONS_FIELD === '1',
    auditHashNames: env.YARROW_AUDIT_HASH_NAMES === '1',
    storeRefusals: env.YARROW_STORE_REFUSALS === '1',
    connectionsNewestFirst: env.YARROW_CONNECTIONS_NEWEST_FIRST === '1',
    port: num(env.YARROW_PORT),
    altPort: num(env.YARROW_ALT_PORT),
  };
}
