// The location blocks of the nginx.conf, as one dispatcher: public routes first, then access_by_lua (token,
// tenant, rate limit) and content_by_lua per route. Every refusal is an ApiError answered by the server.

import { auditPage, record } from './audit.ts';
import { authenticate, rateLimit } from './auth.ts';
import { ApiError, type Ctx, jsonObject, luaList, ok, PREFIX, rawBody, str } from './http.ts';
import type { IdempotencyStore } from './idempotency.ts';
import { publicRoute } from './public.ts';
import {
  checkCapability,
  createConnection,
  listCapabilities,
  listConnectors,
  listProviders,
  validateConnection,
} from './resources.ts';
import type { Store } from './state.ts';
import type { EventBus } from './stream.ts';
import { attempt, ownHook, publicHook, register } from './webhooks.ts';

export interface Deps {
  store: Store;
  bus: EventBus;
  idem: IdempotencyStore;
}

export async function dispatch(d: Deps, ctx: Ctx): Promise<void> {
  const path = ctx.url.pathname.slice(PREFIX.length);
  if (publicRoute(d, ctx, path)) return;
  const { tenant, client } = authenticate(ctx);
  rateLimit(d.store, ctx, `${client}:${tenant}:sandbox`);
  const m = ctx.req.method;
  const raw = m === 'POST' || m === 'DELETE' ? await rawBody(ctx.req) : '';
  const body = () => jsonObject(raw);
  const { store, idem, bus } = d;
  if (m === 'GET' && path === '/info') {
    return ok(ctx, { service: 'sourwood', tenant, clientId: client, environment: 'sandbox', version: ctx.version });
  }
  if (m === 'GET' && path === '/providers') return ok(ctx, listProviders(ctx));
  if (m === 'GET' && path === '/connectors') return ok(ctx, listConnectors(ctx));
  if (m === 'GET' && path === '/capabilities') return ok(ctx, listCapabilities());
  if (m === 'POST' && path === '/capabilities') return ok(ctx, checkCapability(body()));
  if (m === 'GET' && path === '/connections') {
    const list = store.connections.get(tenant) ?? [];
    return ok(ctx, { tenant, count: list.length, connections: list });
  }
  if (m === 'POST' && path === '/connections') {
    idem.key(ctx);
    const v = validateConnection(body());
    return idem.run(ctx, tenant, raw, () => createConnection(store, bus, tenant, client, v));
  }
  if (m === 'POST' && path === '/idempotency-keys') {
    return ok(ctx, idem.issue(str(body(), 'operation', 2, 80) as string));
  }
  if (m === 'GET' && path === '/audit-log') return ok(ctx, auditPage(store, ctx, tenant));
  if (m === 'GET' && path === '/webhooks') {
    const hooks = [...store.webhooks.values()].filter((h) => h.tenant === tenant).map(publicHook);
    return ok(ctx, { count: hooks.length, webhooks: luaList(hooks) });
  }
  if (m === 'POST' && path === '/webhooks') {
    idem.key(ctx);
    const b = body();
    return idem.run(ctx, tenant, raw, () => {
      const hook = register(store, tenant, b);
      record(store, tenant, client, 'webhook.created', 'webhook', hook.id);
      return hook;
    });
  }
  const one = /^\/webhooks\/([\w-]+)(?:\/attempts(?:\/([\w-]+)\/resend)?)?$/.exec(path);
  if (one?.[1]) {
    const hook = ownHook(store, tenant, one[1]);
    const isLog = path.endsWith('/attempts');
    if (m === 'GET' && isLog) {
      const list = (store.attempts.get(hook.id) ?? []).slice().reverse();
      return ok(ctx, { webhookId: hook.id, count: list.length, attempts: luaList(list) });
    }
    if (m === 'POST' && one[2]) {
      const original = (store.attempts.get(hook.id) ?? []).find((a) => a.id === one[2]);
      if (!original) throw new ApiError(404, 'not_found', 'no such delivery attempt');
      return idem.run(ctx, tenant, raw, () => {
        const again = attempt(store, hook, original.payload, original.id);
        record(store, tenant, client, 'webhook.resent', 'webhook_attempt', again.id);
        return { attempt: again };
      });
    }
    if (m === 'DELETE' && !isLog && !one[2]) {
      return idem.run(ctx, tenant, raw, () => {
        store.webhooks.delete(hook.id);
        record(store, tenant, client, 'webhook.deleted', 'webhook', hook.id);
        return { id: hook.id, deleted: true };
      });
    }
  }
  throw new ApiError(404, 'not_found', 'no such route');
}
