// Webhook receivers: registration (signing key returned once as `secret`), signed deliveries with three
// retries (1 s, 2 s, 4 s) on non-2xx, a delivery log per receiver and selective redelivery.
import { createHmac } from 'node:crypto';
import { request } from 'node:http';
import type { Ctx } from './http-kit.ts';
import { ApiError } from './http-kit.ts';
import { instant, opaqueHex, uuidv7 } from './ids.ts';
import type { Delivery, State, Webhook } from './store.ts';
import { later } from './store.ts';
import { textList } from './validate.ts';

export const WEBHOOK_EVENTS = ['connection.created', 'connection.activated', 'order.created', 'order.paid'];
export const SIGNATURE_HEADER = 'Hazel-Signature';
const BACKOFF_MS = [1000, 2000, 4000];

export function sign(secret: string, t: number, body: string): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

export function parseRegistration(body: Record<string, unknown>): { url: string; events: string[] } {
  const raw = body.url;
  if (typeof raw !== 'string' || raw.length < 8 || raw.length > 2048) {
    throw new ApiError('invalid_request', 'Field url is invalid.', {
      detail: 'url: an http(s) address of 8 to 2048 characters',
    });
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ApiError('invalid_request', 'Field url is not an address.', {
      detail: 'url: an absolute http(s) address',
    });
  }
  if (!['http:', 'https:'].includes(url.protocol) || !['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) {
    throw new ApiError('invalid_request', 'Field url is not a permitted receiver.', {
      hint: 'The sandbox delivers to loopback receivers only.',
    });
  }
  const events = textList(body, 'events', 1, 20, 2, 120);
  const unknown = events.find((e) => !WEBHOOK_EVENTS.includes(e));
  if (unknown !== undefined) {
    throw new ApiError('invalid_request', 'Field events names an unknown event.', {
      detail: `events: one of ${WEBHOOK_EVENTS.join(', ')}`,
    });
  }
  return { url: raw, events };
}

export function register(state: State, tenant: string, input: { url: string; events: string[] }): Webhook {
  const hook: Webhook = {
    id: uuidv7(),
    tenant,
    url: input.url,
    events: input.events,
    secret: opaqueHex(),
    status: 'active',
    createdAt: instant(),
  };
  state.webhooks.set(hook.id, hook);
  if (state.options.pingOnRegister) {
    // HAZEL_PING_ON_REGISTER: a signed `webhook.ping` right after registration (GitHub's habit), so the
    // partner sees at once that the receiver and its key work; logged like any delivery
    const eventId = uuidv7();
    const data = { webhookId: hook.id, events: hook.events };
    const body = JSON.stringify({ id: eventId, type: 'webhook.ping', createdAt: instant(), data });
    startDelivery(state, hook, eventId, 'webhook.ping', body, null);
  }
  return hook;
}

export function publicHook(hook: Webhook): Record<string, unknown> {
  return { id: hook.id, url: hook.url, events: hook.events, status: hook.status, createdAt: hook.createdAt };
}

export function publicDelivery(d: Delivery): Record<string, unknown> {
  const last = d.attempts[d.attempts.length - 1];
  return {
    id: d.id,
    webhookId: d.webhookId,
    eventId: d.eventId,
    event: d.event,
    status: d.status,
    attemptCount: d.attempts.length,
    lastResponseStatus: last ? last.responseStatus : null,
    attempts: d.attempts,
    redeliveryOf: d.redeliveryOf,
    createdAt: d.createdAt,
  };
}

function reason(err: unknown): string {
  const code = (err as { code?: string }).code;
  if (code === 'ECONNREFUSED') return 'the receiver refused the connection';
  if (code === 'ETIMEDOUT' || code === 'ECONNRESET') return 'the receiver did not answer in time';
  return 'the receiver could not be reached';
}

function attempt(state: State, hook: Webhook, d: Delivery, n: number): void {
  if (hook.status !== 'active') return;
  const t = Math.floor(Date.now() / 1000);
  const finish = (status: number | null, error?: string) => {
    d.attempts.push(
      error ? { at: instant(), responseStatus: status, error } : { at: instant(), responseStatus: status },
    );
    if (status !== null && status >= 200 && status < 300) d.status = 'succeeded';
    else if (n < BACKOFF_MS.length) later(state, BACKOFF_MS[n] ?? 1000, () => attempt(state, hook, d, n + 1));
    else d.status = 'failed';
  };
  const req = request(hook.url, {
    method: 'POST',
    timeout: 5000,
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': 'Hazel-Webhooks/1.0',
      [SIGNATURE_HEADER]: sign(hook.secret, t, d.body),
      'Hazel-Delivery': d.id,
      'Hazel-Event': d.event,
    },
  });
  req.on('response', (res) => {
    res.resume();
    res.on('end', () => finish(res.statusCode ?? null));
  });
  req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })));
  req.on('error', (err) => finish(null, reason(err)));
  req.end(d.body);
}

function startDelivery(
  state: State,
  hook: Webhook,
  eventId: string,
  event: string,
  body: string,
  redeliveryOf: string | null,
): Delivery {
  const d: Delivery = {
    id: uuidv7(),
    webhookId: hook.id,
    eventId,
    event,
    body,
    status: 'pending',
    attempts: [],
    redeliveryOf,
    createdAt: instant(),
  };
  state.deliveries.set(d.id, d);
  // after the answer that caused it has been sent
  setImmediate(() => attempt(state, hook, d, 0));
  return d;
}

/** An event of a tenant: one delivery to every active receiver of the tenant subscribed to it. */
export function dispatch(state: State, tenant: string, event: string, data: Record<string, unknown>): void {
  const eventId = uuidv7();
  const body = JSON.stringify({ id: eventId, type: event, createdAt: instant(), data });
  for (const hook of state.webhooks.values()) {
    if (hook.tenant === tenant && hook.status === 'active' && hook.events.includes(event))
      startDelivery(state, hook, eventId, event, body, null);
  }
}

/** The tenant's own receiver, else 404 (another tenant's id is not revealed). */
export function ownHook(state: State, ctx: Ctx, id: string): Webhook {
  const hook = state.webhooks.get(id);
  if (!hook || hook.tenant !== ctx.tenant || hook.status !== 'active')
    throw new ApiError('not_found', 'No such webhook receiver.', { hint: 'Compare identifier and tenant header.' });
  return hook;
}

export function deliveriesOf(state: State, hook: Webhook): Delivery[] {
  return [...state.deliveries.values()].filter((d) => d.webhookId === hook.id).reverse();
}

export function redeliver(state: State, hook: Webhook, deliveryId: string): Delivery {
  const original = state.deliveries.get(deliveryId);
  if (!original || original.webhookId !== hook.id)
    throw new ApiError('not_found', 'No such delivery of this receiver.');
  return startDelivery(state, hook, original.eventId, original.event, original.body, original.id);
}
