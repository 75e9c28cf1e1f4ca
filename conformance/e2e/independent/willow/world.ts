// Everything both listeners share: the "bindings" a Worker would get in its env (KV, Durable Object namespace,
// queue, R2 bucket, rate limiter) plus the authorization server. One instance per startWillow().
import { AppendOnlyBucket, AuditSigner } from './audit-r2.ts';
import { AuthServer } from './oauth.ts';
import { FixedWindowLimiter } from './rate-limiter.ts';
import { StreamHub } from './stream-hub.ts';
import { TenantObject } from './tenant-object.ts';
import { DeliveryQueue } from './webhook-queue.ts';

export interface WillowOptions {
  /** Calls per fixed window per access, tenant and environment (default 1000). */
  rateLimit?: number;
  /** Window length in ms (default 60 000). */
  windowMs?: number;
  /** Access token lifetime in seconds (default 3600). */
  tokenTtlSeconds?: number;
  /** How long a new connection stays pending (default 400 ms). */
  activationMs?: number;
  /** Refuse an unknown Service-Version with 400 instead of answering as the current version. */
  strictVersion?: boolean;
  /** Refuse calls without Service-Version (400). */
  requireVersion?: boolean;
  /** Deliver every webhook message twice (Queues are at-least-once). */
  duplicateDeliveries?: boolean;
  /** Audit log newest first instead of oldest first. */
  auditNewestFirst?: boolean;
  heartbeatMs?: number;
  /** GET /connections is served from a KV index that shows a creation this many ms later (eventual consistency). */
  listLagMs?: number;
  /** A stream ends after this many ms (a Worker's response has a lifetime); clients resume with Last-Event-ID. 0: never. */
  streamMaxMs?: number;
  /** Largest audit page; a larger limit is clamped to it (default 500). */
  auditMaxPage?: number;
  /** Idempotency fingerprint over the raw body bytes instead of its canonical JSON. */
  rawFingerprint?: boolean;
  /** The self-description lists paths as Hono's router spells them (app.routes): /webhooks/:webhookId. */
  honoPaths?: boolean;
  /** UTC offset of written timestamps in minutes (default 0: Z). */
  utcOffsetMinutes?: number;
  /** A stream opened without a position starts at the oldest retained message instead of live. */
  streamFromStart?: boolean;
  /** Idempotency-Key used only where the contract asks for it (creations); ignored (not echoed) on checks and key issuance. */
  keyOnlyWhereRequired?: boolean;
  /** openapi.json names the published hosts as its servers, not the address it was read from. */
  publishedServers?: boolean;
  /** The key also stores a refusal the operation decided (404, 409 capability_denied) and replays it. */
  storeRefusals?: boolean;
  /** The delivery log as a flat collection: GET /webhook-deliveries?webhookId=…, POST /webhook-deliveries/{id}/retry. */
  flatDeliveryLog?: boolean;
  /** Idempotency keys belong to the client across its tenants (the tenant is part of the fingerprint). */
  keyScopeClient?: boolean;
  /** The proof also names its parts in generic labels: algorithm sha256, canonicalization RFC8785 (true of willow's chain). */
  proofLabels?: boolean;
  /** The sandbox refuses production: creations 403 forbidden, checks decided not allowed. */
  sandboxOnly?: boolean;
  /** No RFC 8414 metadata: the token endpoint is named in the self-description only. */
  noMetadata?: boolean;
  /** Query parameters a route does not declare are refused (400), like a strict zod validator. */
  strictQuery?: boolean;
  /** Key and body are validated (428, 400) before authentication (401, 403). */
  validateFirst?: boolean;
  /** A stream position beyond the last number sent is refused (400). */
  refuseAhead?: boolean;
}

export const TENANTS = { main: 'willow-oslo', other: 'willow-bergen', foreign: 'willow-tromso' };
export const CLIENT = { id: 'willow-ci', secret: 'wlw-sandbox-secret-7c1e4b9a2d' };

export class World {
  opts: Required<WillowOptions>;
  auth: AuthServer;
  limiter: FixedWindowLimiter;
  bucket = new AppendOnlyBucket();
  signer = new AuditSigner();
  queue: DeliveryQueue;
  publicStream = new StreamHub();
  timers = new Set<NodeJS.Timeout>();
  tenants = new Map<string, TenantObject>();
  clientStores = new Map<string, TenantObject>();

  constructor(options: WillowOptions = {}) {
    this.opts = {
      rateLimit: options.rateLimit ?? 1000,
      windowMs: options.windowMs ?? 60_000,
      tokenTtlSeconds: options.tokenTtlSeconds ?? 3600,
      activationMs: options.activationMs ?? 400,
      strictVersion: options.strictVersion ?? false,
      requireVersion: options.requireVersion ?? false,
      duplicateDeliveries: options.duplicateDeliveries ?? false,
      auditNewestFirst: options.auditNewestFirst ?? false,
      heartbeatMs: options.heartbeatMs ?? 15_000,
      listLagMs: options.listLagMs ?? 0,
      streamMaxMs: options.streamMaxMs ?? 0,
      auditMaxPage: options.auditMaxPage ?? 500,
      rawFingerprint: options.rawFingerprint ?? false,
      honoPaths: options.honoPaths ?? false,
      utcOffsetMinutes: options.utcOffsetMinutes ?? 0,
      streamFromStart: options.streamFromStart ?? false,
      keyOnlyWhereRequired: options.keyOnlyWhereRequired ?? false,
      publishedServers: options.publishedServers ?? false,
      storeRefusals: options.storeRefusals ?? false,
      flatDeliveryLog: options.flatDeliveryLog ?? false,
      keyScopeClient: options.keyScopeClient ?? false,
      proofLabels: options.proofLabels ?? false,
      sandboxOnly: options.sandboxOnly ?? false,
      noMetadata: options.noMetadata ?? false,
      strictQuery: options.strictQuery ?? false,
      validateFirst: options.validateFirst ?? false,
      refuseAhead: options.refuseAhead ?? false,
    };
    this.auth = new AuthServer(this.opts.tokenTtlSeconds);
    this.auth.addClient(CLIENT.id, CLIENT.secret, [TENANTS.main, TENANTS.other]);
    this.limiter = new FixedWindowLimiter({
      limit: this.opts.rateLimit,
      windowMs: this.opts.windowMs,
      environment: 'sandbox',
    });
    this.queue = new DeliveryQueue(this.opts.duplicateDeliveries);
    for (const t of Object.values(TENANTS)) this.tenant(t);
  }

  /** The tenant's Durable Object, created on first use like idFromName(). Only known tenants exist. */
  tenant(name: string): TenantObject {
    let obj = this.tenants.get(name);
    if (obj === undefined) {
      obj = new TenantObject(name, {
        bucket: this.bucket,
        queue: this.queue,
        publicStream: this.publicStream,
        activationMs: this.opts.activationMs,
        timers: this.timers,
        utcOffset: this.opts.utcOffsetMinutes,
      });
      this.tenants.set(name, obj);
    }
    return obj;
  }

  /** The idempotency store of one client (keyScopeClient): an object of its own, never a tenant's. */
  clientStore(clientId: string): TenantObject {
    const name = `client:${clientId}`;
    let obj = this.clientStores.get(name);
    if (obj === undefined) {
      obj = new TenantObject(name, {
        bucket: this.bucket,
        queue: this.queue,
        publicStream: new StreamHub(),
        activationMs: this.opts.activationMs,
        timers: this.timers,
        utcOffset: this.opts.utcOffsetMinutes,
      });
      this.clientStores.set(name, obj);
    }
    return obj;
  }

  close(): void {
    this.queue.close();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.publicStream.closeAll();
    for (const t of this.tenants.values()) t.stream.closeAll();
  }
}
