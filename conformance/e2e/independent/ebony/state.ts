// The one shared state of an ebony deployment (both base addresses serve it) and its start options.
import { AuditJournal } from './audit.ts';
import { Authority } from './auth.ts';
import { Connections } from './connections.ts';
import { IdempotencyStore } from './idempotency.ts';
import { FixedWindow } from './limits.ts';
import { StatusStream } from './stream.ts';
import { Webhooks } from './webhooks.ts';

export interface EbonyOptions {
  /** Calls per window per access, tenant and environment (plan "SANDBOX-STD": 1200). */
  rateLimit?: number;
  /** Length of the fixed window in ms (60000). */
  windowMs?: number;
  /** Lifetime of an access token in seconds (300). */
  tokenTtlSeconds?: number;
  /** Strict Service-Version: an unknown value answers 400 invalid_request (default: served as the current version). */
  strictServiceVersion?: boolean;
  /** How often the webhook dispatcher drains its queue, in ms (300). */
  dispatchIntervalMs?: number;
  /** How long a connection stays PEND before the activation batch makes it ACTV, in ms (500). */
  activationDelayMs?: number;
}

export type Resolved = Required<EbonyOptions>;

export function resolve(o: EbonyOptions = {}): Resolved {
  return {
    rateLimit: o.rateLimit ?? 1200,
    windowMs: o.windowMs ?? 60_000,
    tokenTtlSeconds: o.tokenTtlSeconds ?? 300,
    strictServiceVersion: o.strictServiceVersion ?? false,
    dispatchIntervalMs: o.dispatchIntervalMs ?? 300,
    activationDelayMs: o.activationDelayMs ?? 500,
  };
}

export class Ebony {
  readonly options: Resolved;
  readonly authority: Authority;
  readonly limiter: FixedWindow;
  readonly publicLimiter: FixedWindow;
  readonly idempotency = new IdempotencyStore();
  readonly stream = new StatusStream();
  readonly audit = new AuditJournal();
  readonly webhooks: Webhooks;
  readonly connections: Connections;
  /** Filled once both ports listen. */
  baseUrl = '';
  altBaseUrl = '';

  constructor(options: EbonyOptions = {}) {
    this.options = resolve(options);
    this.authority = new Authority(this.options.tokenTtlSeconds);
    this.limiter = new FixedWindow(this.options.rateLimit, this.options.windowMs);
    this.publicLimiter = new FixedWindow(Math.max(this.options.rateLimit, 600), this.options.windowMs);
    this.webhooks = new Webhooks(this.options.dispatchIntervalMs);
    this.connections = new Connections(this.options.activationDelayMs, this.stream, this.webhooks, this.audit);
  }

  close(): void {
    this.connections.close();
    this.webhooks.close();
    this.stream.close();
  }
}
