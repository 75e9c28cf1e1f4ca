// The one state both listeners share: clients, tenants, tokens and every table the handlers keep.
// Plain maps, the way a Go service keeps its in-memory store behind one struct.
import { createHash, randomBytes } from 'node:crypto';

export const VERSION = '2026-07-01';
export const VERSIONS = ['2026-07-01', '2026-06-12'] as const;
export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'] as const;
/** The environment this deployment is: the rate-limit key carries it. */
export const DEPLOYMENT_ENV = 'sandbox';

export interface Options {
  port?: number;
  altPort?: number;
  /** Calls per window (GCRA: the window is the time a full burst takes to refill). */
  rateLimit?: number;
  windowMs?: number;
  /** Delay from provisioning to live. */
  activationMs?: number;
  tokenTtlSeconds?: number;
  /** Service-Version mandatory (400 without it). */
  versionRequired?: boolean;
  /** Retry waits of webhook deliveries, in ms. */
  retryDelaysMs?: number[];
  /** Other legal choices, off by default (see README). */
  streamReplayAll?: boolean;
  streamMultiline?: boolean;
  auditOldestFirst?: boolean;
  unknownVersionAsCurrent?: boolean;
  missingTenantStatus?: 400 | 401 | 403;
  relayDelayMs?: number;
  redeliverSameId?: boolean;
  timeOffsetMinutes?: number;
  /** Refusals of modifying calls are stored under their key and replayed too. */
  storeRefusals?: boolean;
  connectionsNewestFirst?: boolean;
  /** Largest audit page; a larger `limit` is 400. */
  auditMaxLimit?: number;
  streamMaxMs?: number;
}

export interface Connection {
  id: string;
  connectorId: string;
  environment: string;
  scopeLabel: string;
  state: 'provisioning' | 'live' | 'paused';
  capabilities: { capability: string; critical: boolean; idempotencyRequired: boolean }[];
  nextStep: string;
  createdAt: string;
}

export interface StreamMessage {
  seq: number;
  data: string;
}

export interface State {
  opts: Required<Omit<Options, 'port' | 'altPort'>>;
  clients: Map<string, { secret: string; tenants: string[] }>;
  /** Tenants that exist; a tenant not listed for a client is not released to it (403). */
  tenants: Set<string>;
  tokens: Map<string, { clientId: string; expiresAt: number }>;
  connections: Map<string, Connection[]>;
  /** Per tenant (the public feed under ''): the numbered messages and the open listeners. */
  feeds: Map<string, { log: StreamMessage[]; subs: Set<(m: StreamMessage) => void> }>;
  /** Tenant events for webhook dispatch, registered by webhooks.ts. */
  listeners: ((tenant: string, type: string, data: Record<string, unknown>) => void)[];
  timers: Set<NodeJS.Timeout>;
}

export function createState(o: Options): State {
  return {
    opts: {
      rateLimit: o.rateLimit ?? 600,
      windowMs: o.windowMs ?? 60_000,
      activationMs: o.activationMs ?? 300,
      tokenTtlSeconds: o.tokenTtlSeconds ?? 900,
      versionRequired: o.versionRequired ?? false,
      retryDelaysMs: o.retryDelaysMs ?? [2000, 8000],
      streamReplayAll: o.streamReplayAll ?? false,
      streamMultiline: o.streamMultiline ?? false,
      auditOldestFirst: o.auditOldestFirst ?? false,
      unknownVersionAsCurrent: o.unknownVersionAsCurrent ?? false,
      missingTenantStatus: o.missingTenantStatus ?? 400,
      relayDelayMs: o.relayDelayMs ?? 0,
      redeliverSameId: o.redeliverSameId ?? false,
      timeOffsetMinutes: o.timeOffsetMinutes ?? 0,
      storeRefusals: o.storeRefusals ?? false,
      connectionsNewestFirst: o.connectionsNewestFirst ?? false,
      auditMaxLimit: o.auditMaxLimit ?? 200,
      streamMaxMs: o.streamMaxMs ?? 0,
    },
    clients: new Map([
      ['mulberry-ci', { secret: `mbs_${randomBytes(18).toString('hex')}`, tenants: ['tea-house', 'noodle-bar'] }],
    ]),
    tenants: new Set(['tea-house', 'noodle-bar', 'closed-bakery']),
    tokens: new Map(),
    connections: new Map(),
    feeds: new Map(),
    listeners: [],
    timers: new Set(),
  };
}

const B62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KSUID_EPOCH = 1_400_000_000;

/** A KSUID: 4 bytes of seconds since the KSUID epoch and 16 random bytes, 27 base62 characters. */
export function ksuid(): string {
  const buf = Buffer.alloc(20);
  buf.writeUInt32BE(Math.floor(Date.now() / 1000) - KSUID_EPOCH, 0);
  randomBytes(16).copy(buf, 4);
  let n = BigInt(`0x${buf.toString('hex')}`);
  let out = '';
  while (n > 0n) {
    out = B62[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out.padStart(27, '0');
}

/** RFC 3339 time; timeOffsetMinutes: local time with its offset (`+01:00`), as a server in a zone would. */
export function now(state: State, ms = Date.now()): string {
  const off = state.opts.timeOffsetMinutes;
  if (off === 0) return new Date(ms).toISOString();
  const local = new Date(ms + off * 60_000).toISOString().slice(0, -1);
  const a = Math.abs(off);
  return `${local}${off < 0 ? '-' : '+'}${String(Math.floor(a / 60)).padStart(2, '0')}:${String(a % 60).padStart(2, '0')}`;
}
export const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');

/** Keys sorted at every level: the fingerprint of a body does not depend on field order. */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

export function later(state: State, ms: number, fn: () => void): void {
  const t = setTimeout(() => {
    state.timers.delete(t);
    fn();
  }, ms);
  state.timers.add(t);
}
