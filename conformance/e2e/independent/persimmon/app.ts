// The services one deployment wires together, and the authenticated-call prelude every protected route
// runs first (servant-auth, then the tenant header, then the rate-limit middleware's bucket).

import { AuditLog } from './audit.ts';
import { authenticate, Tokens } from './auth.ts';
import { type Ctx, meta, type Rec, sendJson } from './http.ts';
import { IdempotencyStore } from './idempotency.ts';
import { TokenBuckets } from './rate-limit.ts';
import { type PersimmonOptions, Store } from './state.ts';
import { StatusStream } from './stream.ts';
import { Deliverer } from './webhooks.ts';

export interface App {
  store: Store;
  tokens: Tokens;
  buckets: TokenBuckets;
  idem: IdempotencyStore;
  stream: StatusStream;
  deliverer: Deliverer;
  audit: AuditLog;
}

export function createApp(options: PersimmonOptions): App {
  const store = new Store(options);
  return {
    store,
    tokens: new Tokens(options.tokenSeconds ?? 300),
    // 600 calls a bucket, 20 a second back: a full conformance run fits, a flood meets a 429 quickly.
    buckets: new TokenBuckets(options.bucketSize ?? 600, options.refillPerSecond ?? 20),
    idem: new IdempotencyStore(),
    stream: new StatusStream(),
    deliverer: new Deliverer(store),
    audit: new AuditLog(store),
  };
}

export interface Caller {
  clientId: string;
  tenant: string;
}

/** 401, then 400/403 for the tenant, then one token from the bucket of (access, tenant, environment). */
export function prelude(app: App, ctx: Ctx): Caller {
  const caller = authenticate(ctx, app.tokens);
  app.buckets.take(ctx, `${caller.clientId}|${caller.tenant}|sandbox`);
  return caller;
}

/** What a connection creation sets off: a stream message, an audit entry and webhook deliveries. */
export function announceConnection(app: App, caller: Caller, connection: Rec): void {
  const summary = {
    connectionId: connection.id,
    connectorId: connection.connectorId,
    environment: connection.environment,
    state: connection.state,
  };
  app.audit.record(caller.tenant, caller.clientId, 'connection.created', { type: 'connection', id: connection.id });
  const eventId = `evt_${app.store.key()}`;
  app.deliverer.later(app.store.options.outboxDelayMs ?? 0, () => {
    app.stream.publish('connection.created', summary);
    app.deliverer.fanOut(caller.tenant, 'connection.created', eventId, { connection });
  });
}

export const P = '/api/public/v1';

/** One entry of the route table (Servant's API type, flattened). */
export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  purpose: string;
  auth: boolean;
  /** First version that has the route (the delivery log came with 2026-07-01). */
  since?: string;
  handle: (app: App, ctx: Ctx, params: Record<string, string>) => Promise<void> | void;
}

/** Answers with meta.replayed only on a repeat, as aeson omits a `Nothing`. */
export function answer(ctx: Ctx, r: { data: Rec; replayed: boolean }): void {
  sendJson(ctx, 200, { ok: true, data: r.data, meta: meta(ctx, r.replayed ? { replayed: true } : {}) });
}
