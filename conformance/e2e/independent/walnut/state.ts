// The one state both listeners share (the "database" and the "broker").
import { AuditLog } from './audit.ts';
import { type Clock, type Connection, djangoClock, type WalnutOptions } from './core.ts';
import { IdempotencyStore } from './idempotency.ts';
import { OAuth } from './oauth.ts';
import { StatusStream } from './stream.ts';
import { Throttle } from './throttle.ts';
import { WebhookService } from './webhooks.ts';

export const TENANTS = { main: 'walnut-orchard', other: 'walnut-grove', foreign: 'walnut-shell' };
export const CLIENT = { id: 'walnut-partner-backend', secret: 'wal_cs_7f3c9e1b5d2a48a6b0c4e8f1d3a5b7c9' };

export interface State {
  time: Clock;
  opts: Required<
    Pick<WalnutOptions, 'rateLimit' | 'windowMs' | 'tokenTtlSeconds' | 'checkpointEvery' | 'activationDelayMs'>
  > &
    WalnutOptions;
  oauth: OAuth;
  throttle: Throttle;
  idem: IdempotencyStore;
  audit: AuditLog;
  stream: StatusStream;
  hooks: WebhookService;
  connections: Connection[];
  /** Tenants that exist; a client may act only for those it is released for. */
  tenants: string[];
  timers: Set<NodeJS.Timeout>;
}

export function createState(options: WalnutOptions = {}): State {
  const opts = {
    rateLimit: 1000,
    windowMs: 60_000,
    tokenTtlSeconds: 3600,
    checkpointEvery: 10,
    activationDelayMs: 400,
    ...options,
  };
  const time = djangoClock(opts.utcOffsetMinutes ?? 0);
  return {
    time,
    opts,
    oauth: new OAuth(
      [{ id: CLIENT.id, secret: CLIENT.secret, tenants: [TENANTS.main, TENANTS.other] }],
      opts.tokenTtlSeconds,
    ),
    throttle: new Throttle(opts.rateLimit, opts.windowMs),
    idem: new IdempotencyStore(time),
    audit: new AuditLog(opts.checkpointEvery, time),
    stream: new StatusStream(time, opts.heartbeatMs ?? 15000, opts.streamMaxMs),
    hooks: new WebhookService(time),
    connections: [],
    tenants: [TENANTS.main, TENANTS.other, TENANTS.foreign],
    timers: new Set(),
  };
}
