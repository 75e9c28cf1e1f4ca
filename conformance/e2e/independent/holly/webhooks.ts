// WebhookService: receivers per tenant, signed deliveries, the delivery log and the AIP-136 :retry method.
import { createHmac, randomBytes } from 'node:crypto';
import { record } from './audit.ts';
import type { Principal } from './auth.ts';
import { type Call, fail, now, ok } from './http.ts';
import { lookup, store } from './idempotency.ts';
import { type Attempt, type Delivery, later, rid, type State, type Webhook } from './state.ts';
import { Rules } from './validate.ts';

export const EVENT_NAMES = ['connection.created', 'connection.state_changed', 'order.created', 'order.paid'];
export const SIGNATURE_HEADER = 'holly-signature';
export const DELIVERY_HEADER = 'holly-delivery';
/** Automatic attempts after the first fails: 1 s, then 5 s. */
const BACKOFF_MS = [1000, 5000];

function hookView(w: Webhook) {
  return {
    name: `webhooks/${w.id}`,
    id: w.id,
    url: w.url,
    events: w.events,
    state: 'ACTIVE',
    createTime: w.createTime,
  };
}

function deliveryView(d: Delivery) {
  const { body: _b, tenant: _t, ...rest } = d;
  return { name: `webhooks/${d.webhookId}/deliveries/${d.id}`, ...rest, attemptCount: d.attempts.length };
}

export function sign(secret: string, t: number, body: string): string {
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return `t=${t},v1=${v1}`;
}

async function attempt(state: State, d: Delivery, trigger: Attempt['trigger'], retriesLeft: number): Promise<void> {
  const hook = state.webhooks.get(d.webhookId);
  if (!hook) return;
  const entry: Attempt = { attempt: d.attempts.length + 1, trigger, time: now(), outcome: 'FAILED' };
  const t = Math.floor(Date.now() / 1000);
  try {
    const res = await fetch(hook.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [SIGNATURE_HEADER]: sign(hook.secret, t, d.body),
        [DELIVERY_HEADER]: d.id,
        'holly-event': d.event,
        'user-agent': 'holly-webhooks/1.0',
      },
      body: d.body,
      signal: AbortSignal.timeout(5000),
    });
    await res.arrayBuffer().catch(() => undefined);
    entry.httpStatus = res.status;
    entry.outcome = res.ok ? 'SUCCEEDED' : 'FAILED';
    if (!res.ok) entry.error = `HTTP_${res.status}`;
  } catch {
    entry.error = 'UNREACHABLE';
  }
  d.attempts.push(entry);
  d.state = entry.outcome;
  const delay = BACKOFF_MS[BACKOFF_MS.length - retriesLeft];
  if (entry.outcome === 'FAILED' && retriesLeft > 0 && delay !== undefined) {
    later(state, delay, () => void attempt(state, d, 'AUTOMATIC', retriesLeft - 1));
  }
}

/** Queues one delivery per receiver of the tenant subscribed to the event. */
export function emit(state: State, tenant: string, event: string, data: Record<string, unknown>): void {
  for (const hook of state.webhooks.values()) {
    if (hook.tenant !== tenant || !hook.events.includes(event)) continue;
    const eventId = rid('evt');
    const d: Delivery = {
      id: rid('d'),
      webhookId: hook.id,
      tenant,
      eventId,
      event,
      body: JSON.stringify({ id: eventId, name: `events/${eventId}`, type: event, createTime: now(), data }),
      state: 'PENDING',
      attempts: [],
      createTime: now(),
    };
    state.deliveries.push(d);
    setImmediate(() => void attempt(state, d, 'AUTOMATIC', BACKOFF_MS.length));
  }
}

export function createWebhook(state: State, call: Call, who: Principal, key: string, body: Record<string, unknown>) {
  const idem = lookup(state, call, who, key, 'webhooks', body);
  if (!idem) return;
  const rules = new Rules(body).known(['url', 'events']);
  const url = rules.text('url', 8, 2048);
  const events = rules.textList('events', 1, EVENT_NAMES.length, 2, 120);
  if (url !== undefined && !/^https?:\/\/[^\s/]+/.test(url)) {
    rules.violations.push({ field: 'url', description: 'must be an absolute http or https URL' });
  }
  if (events?.some((e) => !EVENT_NAMES.includes(e))) {
    rules.violations.push({ field: 'events', description: `each one of ${EVENT_NAMES.join(', ')}` });
  }
  if (rules.failed || !url || !events) {
    return fail(call, 'invalid_request', 'the request does not match the published description', {
      detail: rules.violations.map((v) => `${v.field}: ${v.description}`).join('; '),
      violations: rules.violations,
    });
  }
  const hook: Webhook = {
    id: rid('w'),
    tenant: who.tenant,
    url,
    events: [...new Set(events)],
    secret: `whsec_${randomBytes(24).toString('base64url')}`,
    createTime: now(),
  };
  state.webhooks.set(hook.id, hook);
  const data = { ...hookView(hook), signingKey: hook.secret };
  store(state, idem, data, state.opts.redactKeyOnReplay ? hookView(hook) : undefined);
  record(state, who.tenant, who.clientId, 'CREATE_WEBHOOK', `webhooks/${hook.id}`);
  ok(call, data, { idempotencyKey: key, replayed: false });
}

function ownHook(state: State, call: Call, who: Principal, id: string): Webhook | undefined {
  const hook = state.webhooks.get(id);
  if (hook && hook.tenant === who.tenant) return hook;
  fail(call, 'not_found', 'no webhook with this id for the tenant');
  return undefined;
}

export function listWebhooks(state: State, call: Call, who: Principal) {
  const webhooks = [...state.webhooks.values()].filter((w) => w.tenant === who.tenant).map(hookView);
  ok(call, { webhooks, nextPageToken: '' });
}

export function getWebhook(state: State, call: Call, who: Principal, id: string) {
  const hook = ownHook(state, call, who, id);
  if (hook) ok(call, hookView(hook));
}

export function deleteWebhook(state: State, call: Call, who: Principal, key: string, id: string) {
  const idem = lookup(state, call, who, key, `webhooks/${id}:delete`, {});
  if (!idem) return;
  const hook = ownHook(state, call, who, id);
  if (!hook) return;
  state.webhooks.delete(id);
  store(state, idem, {});
  record(state, who.tenant, who.clientId, 'DELETE_WEBHOOK', `webhooks/${id}`);
  ok(call, {}, { idempotencyKey: key, replayed: false });
}

/** AIP-158: page_size (default 50, max 500) and an opaque page_token; newest delivery first. */
export function listDeliveries(state: State, call: Call, who: Principal, id: string) {
  const hook = ownHook(state, call, who, id);
  if (!hook) return;
  const q = call.url.searchParams;
  const size = Math.min(500, Math.max(1, Number(q.get('page_size') ?? q.get('pageSize') ?? 50) || 50));
  const token = q.get('page_token') ?? q.get('pageToken') ?? '';
  const offset = token ? Number(Buffer.from(token, 'base64url').toString('utf8').replace(/^o:/, '')) : 0;
  if (!Number.isInteger(offset) || offset < 0) {
    return fail(call, 'invalid_request', 'page_token is not a token this list issued', {
      violations: [{ field: 'page_token', description: 'opaque token from next_page_token' }],
    });
  }
  const all = state.deliveries.filter((d) => d.webhookId === hook.id).reverse();
  const next = offset + size < all.length ? Buffer.from(`o:${offset + size}`).toString('base64url') : '';
  const deliveries = all.slice(offset, offset + size).map(deliveryView);
  ok(call, { deliveries, nextPageToken: next, totalSize: all.length });
}

export function retryDelivery(
  state: State,
  call: Call,
  who: Principal,
  key: string,
  ids: [string, string],
  body: unknown,
) {
  const idem = lookup(state, call, who, key, `webhooks/${ids[0]}/deliveries/${ids[1]}:retry`, body);
  if (!idem) return;
  const hook = ownHook(state, call, who, ids[0]);
  if (!hook) return;
  const d = state.deliveries.find((x) => x.webhookId === hook.id && x.id === ids[1]);
  if (!d) return fail(call, 'not_found', 'no delivery with this id for the webhook');
  d.state = 'PENDING';
  const data = deliveryView(d);
  store(state, idem, data);
  record(state, who.tenant, who.clientId, 'RETRY_DELIVERY', data.name);
  setImmediate(() => void attempt(state, d, 'MANUAL', 0));
  ok(call, data, { idempotencyKey: key, replayed: false });
}
