// The deployment's shared state and options: one Kv, one token service, two listeners.
import { Kv } from './kv.ts';
import type { TokenService } from './tokens.ts';

export interface TupeloOptions {
  /** Calls per fixed window per client, tenant and environment (default 600). */
  rateLimit?: number;
  /** Fixed window length in ms (default 10000). */
  windowMs?: number;
  /** Access token lifetime in seconds (default 300). */
  tokenLifetimeS?: number;
  /** Webhook retry backoffSchedule in ms (default 2000, 10000, 60000). */
  backoffMs?: number[];
  /** Delay before a connection turns active (default 300 ms). */
  activationMs?: number;
  /** Service-Version required on authenticated calls (428 would be wrong: 400 invalid_request). */
  versionRequired?: boolean;
  /** Audit log oldest first instead of newest first. */
  auditOldestFirst?: boolean;
  /** Refusals made under a key (capability_denied, not_found) are stored and replayed like successes. */
  replayRefusals?: boolean;
  /** A stream opened without cursor or Last-Event-ID starts at the first message instead of live. */
  streamFromStart?: boolean;
  /** Every delivery attempt is sent twice (at-least-once delivery). */
  deliverTwice?: boolean;
  /** A re-trigger sends the same delivery again under its own id (a new attempt) instead of a new delivery. */
  retriggerSameId?: boolean;
  /** Queue delay before a delivery's first attempt (default 0). */
  deliveryDelayMs?: number;
}

export interface App {
  kv: Kv;
  tokens: TokenService;
  opts: Required<TupeloOptions>;
  /** Pending per-key operations, so two identical calls at once produce one effect. */
  inflight: Map<string, Promise<unknown>>;
}

export function resolveOptions(o: TupeloOptions = {}): Required<TupeloOptions> {
  return {
    rateLimit: o.rateLimit ?? 600,
    windowMs: o.windowMs ?? 10_000,
    tokenLifetimeS: o.tokenLifetimeS ?? 300,
    backoffMs: o.backoffMs ?? [2000, 10_000, 60_000],
    activationMs: o.activationMs ?? 300,
    versionRequired: o.versionRequired ?? false,
    auditOldestFirst: o.auditOldestFirst ?? false,
    replayRefusals: o.replayRefusals ?? false,
    streamFromStart: o.streamFromStart ?? false,
    deliverTwice: o.deliverTwice ?? false,
    retriggerSameId: o.retriggerSameId ?? false,
    deliveryDelayMs: o.deliveryDelayMs ?? 0,
  };
}

export function newApp(tokens: TokenService, o: TupeloOptions): App {
  return { kv: new Kv(), tokens, opts: resolveOptions(o), inflight: new Map() };
}
