// One in-memory store shared by both listeners (main and alternate address), shaped the way a Ballerina
// service keeps its tables: `table<Connection> key(id)` becomes a Map, records become plain objects.
import { generateKeyPairSync, type KeyObject, randomUUID } from 'node:crypto';

// biome-ignore lint/suspicious/noExplicitAny: records turned into JSON, as Ballerina's json type
export type Rec = Record<string, any>;

export const VERSION = '2026-07-01';
export const VERSIONS = ['2026-06-12', '2026-07-01'] as const;
export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'] as const;
export const EVENT_NAMES = ['connection.created', 'connection.activated', 'webhook.test'] as const;

export interface MesquiteOptions {
  /** Calls per window per client, tenant and environment (Choreo's subscription tier, scaled down). */
  rateLimit?: number;
  windowMs?: number;
  /** Access token lifetime in seconds (Choreo's default application token is 3600 s). */
  tokenSeconds?: number;
  /** The token endpoint on its own listener, as Choreo's STS is its own host (sts.choreo.dev). */
  separateSts?: boolean;
  /** Service-Version required on every call of the service (a missing one is a 400). */
  versionRequired?: boolean;
  /** Audit pages: newest first (default) or oldest first; page size clamp. */
  auditOldestFirst?: boolean;
  auditMaxLimit?: number;
  /** Keep refusals (4xx after validation) under their key too, so a repeat gets the same refusal again. */
  storeRefusals?: boolean;
  /** The first message number of a stream (1 by default; 0 as a Ballerina array index). */
  streamStart?: number;
  /** Token endpoint client authentication: both methods (WSO2's default) or only the form's fields. */
  tokenAuth?: 'both' | 'post';
  /** Deliveries as CloudEvents 1.0 (structured JSON, `ce-id` header), the key under `credentials.hmacSecret`. */
  cloudEvents?: boolean;
  /** Idempotency keys scoped per OAuth client (Choreo application) instead of per tenant; the tenant is content. */
  keyScope?: 'tenant' | 'client';
  /** An unknown connector in a capability check: 404 (default) or a decision `allowed: false`. */
  unknownConnectorDecision?: boolean;
  /** The chain's digests as Ballerina's `toBase16()` (hex, default) or `toBase64()`; the first link: zeros or nil. */
  auditEncoding?: 'hex' | 'base64';
  auditGenesis?: 'zeros' | 'nil';
  /** Deliveries leave from an outbox a scheduled `task:Job` drains every so often (0: at once). */
  deliveryDelayMs?: number;
  /** Sandbox connections start PROVISIONING and turn ACTIVE this much later, with a stream message (0: ACTIVE at once). */
  activationMs?: number;
}

/** Ballerina's `time:utcToString(time:utcNow())`: RFC 3339 with nanosecond precision, e.g. `...T00:41:09.123456789Z`. */
export function civilNow(ms = Date.now()): string {
  const base = new Date(ms).toISOString().slice(0, 19);
  const nanos = (ms % 1000) * 1_000_000 + Number(process.hrtime.bigint() % 1_000_000n);
  return `${base}.${String(nanos).padStart(9, '0')}Z`;
}

/** Ballerina's `uuid:createType4AsString()`: every id is a plain lowercase UUID v4. */
export const uuid = (): string => randomUUID();

export interface Store {
  options: Required<MesquiteOptions>;
  clientId: string;
  clientSecret: string;
  /** Tenants that exist; `released` are the ones the client may act for. */
  tenants: Set<string>;
  released: Set<string>;
  tokens: Map<string, { clientId: string; expiresAt: number }>;
  connections: Map<string, Rec[]>;
  idempotency: Map<string, { fingerprint: string; status: number; body: Rec }>;
  issuedKeys: Map<string, Rec>;
  webhooks: Map<string, Rec>;
  attempts: Map<string, Rec[]>;
  audit: Map<string, Rec[]>;
  rate: Map<string, { windowStart: number; used: number }>;
  /** The key `crypto:signRsaSha256` signs the audit chain's head with (its public half is shown beside it). */
  auditKey: { privateKey: KeyObject; publicPem: string };
}

export function createStore(options: MesquiteOptions = {}): Store {
  return {
    options: {
      rateLimit: options.rateLimit ?? 600,
      windowMs: options.windowMs ?? 60_000,
      tokenSeconds: options.tokenSeconds ?? 3600,
      separateSts: options.separateSts ?? false,
      versionRequired: options.versionRequired ?? false,
      storeRefusals: options.storeRefusals ?? false,
      streamStart: options.streamStart ?? 1,
      tokenAuth: options.tokenAuth ?? 'both',
      cloudEvents: options.cloudEvents ?? false,
      keyScope: options.keyScope ?? 'tenant',
      unknownConnectorDecision: options.unknownConnectorDecision ?? false,
      auditEncoding: options.auditEncoding ?? 'hex',
      auditGenesis: options.auditGenesis ?? 'zeros',
      deliveryDelayMs: options.deliveryDelayMs ?? 0,
      activationMs: options.activationMs ?? 0,
      auditOldestFirst: options.auditOldestFirst ?? false,
      auditMaxLimit: options.auditMaxLimit ?? 100,
    },
    clientId: `choreo_${uuid().replaceAll('-', '').slice(0, 20)}`,
    clientSecret: uuid().replaceAll('-', ''),
    tenants: new Set(['acme-bistro', 'harbour-cafe', 'sealed-kitchen']),
    released: new Set(['acme-bistro', 'harbour-cafe']),
    tokens: new Map(),
    connections: new Map(),
    idempotency: new Map(),
    issuedKeys: new Map(),
    webhooks: new Map(),
    attempts: new Map(),
    audit: new Map(),
    rate: new Map(),
    auditKey: rsaKey(),
  };
}

function rsaKey(): { privateKey: KeyObject; publicPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { privateKey, publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}
