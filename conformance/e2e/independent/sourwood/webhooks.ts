// Webhook receivers and their deliveries, as lua-resty-http posts them from an ngx.timer.at callback: a JSON
// event signed `X-Sourwood-Signature: t=<unix>,v1=<hmac-sha256 hex of "t.body">`, every attempt kept in the
// receiver's attempt log (GET /webhooks/{id}/attempts), any attempt sent again on request
// (POST /webhooks/{id}/attempts/{attemptId}/resend). One attempt per delivery: the retry policy is not shown,
// and the team retries only on request.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { ApiError, cjson, type Rec } from './http.ts';
import { listOf, type Store } from './state.ts';

export const EVENT_NAMES = ['connection.created', 'connection.activated', 'order.created', 'order.paid'];
export const SIGNATURE_HEADER = 'X-Sourwood-Signature';

export function register(store: Store, tenant: string, body: Rec): Rec {
  const url = body.url;
  let parsed: URL | undefined;
  try {
    parsed = typeof url === 'string' ? new URL(url) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!parsed || !/^https?:$/.test(parsed.protocol)) {
    throw new ApiError(400, 'invalid_request', 'url must be an http(s) address');
  }
  const events = body.events;
  if (!Array.isArray(events) || events.length === 0 || events.length > 20) {
    throw new ApiError(400, 'invalid_request', 'events must be an array of 1 to 20 event names');
  }
  const unknown = events.filter((e) => typeof e !== 'string' || !EVENT_NAMES.includes(e));
  if (unknown.length > 0) {
    throw new ApiError(400, 'invalid_request', `events: one of ${EVENT_NAMES.join(', ')}`);
  }
  const hook = {
    id: `wh_${randomBytes(12).toString('hex')}`,
    url: String(url),
    events: [...new Set(events as string[])],
    status: 'enabled',
    createdAt: new Date().toISOString(),
  };
  const secret = `whsec_${randomBytes(24).toString('base64url')}`;
  store.webhooks.set(hook.id, { ...hook, tenant, secret });
  // The key leaves the service once, in this answer (and its idempotent replay); no other answer shows it.
  return { ...hook, secret };
}

export function publicHook(h: Rec): Rec {
  const { tenant: _t, secret: _s, ...rest } = h;
  return rest;
}

export function ownHook(store: Store, tenant: string, id: string): Rec {
  const h = store.webhooks.get(id);
  if (!h || h.tenant !== tenant) throw new ApiError(404, 'not_found', 'no such webhook receiver');
  return h;
}

/** Every receiver of the tenant subscribed to `event` gets one signed attempt. */
export function emit(store: Store, tenant: string, event: string, data: Rec): void {
  const payload = { id: `evt_${randomUUID()}`, type: event, created: Math.floor(Date.now() / 1000), tenant, data };
  for (const h of store.webhooks.values()) {
    if (h.tenant === tenant && h.events.includes(event)) attempt(store, h, payload, undefined);
  }
}

export function attempt(store: Store, hook: Rec, payload: Rec, resendOf: string | undefined): Rec {
  const rec: Rec = {
    id: randomUUID(),
    webhookId: hook.id,
    eventId: payload.id,
    event: payload.type,
    status: 'pending',
    responseStatus: null,
    createdAt: new Date().toISOString(),
    payload,
  };
  if (resendOf) rec.resendOf = resendOf;
  listOf(store.attempts, hook.id).push(rec);
  const raw = cjson(payload);
  const t = Math.floor(Date.now() / 1000);
  const v1 = createHmac('sha256', hook.secret).update(`${t}.${raw}`).digest('hex');
  // ngx.timer.at(0, ...): the answer to the caller does not wait for the receiver.
  const timer = setTimeout(() => {
    store.timers.delete(timer);
    fetch(hook.url, {
      method: 'POST',
      body: raw,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'lua-resty-http/0.17 (sourwood-webhooks)',
        [SIGNATURE_HEADER]: `t=${t},v1=${v1}`,
        'x-sourwood-event': payload.type,
        'x-sourwood-attempt-id': rec.id,
      },
      signal: AbortSignal.timeout(5000),
    })
      .then(async (r) => {
        await r.arrayBuffer().catch(() => undefined);
        rec.responseStatus = r.status;
        rec.status = r.ok ? 'delivered' : 'failed';
      })
      .catch(() => {
        rec.status = 'failed';
      })
      .finally(() => {
        rec.attemptedAt = new Date().toISOString();
      });
  }, 0);
  store.timers.add(timer);
  return rec;
}
