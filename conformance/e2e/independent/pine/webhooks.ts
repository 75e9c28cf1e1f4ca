// Webhook receivers and their deliveries: signed JSON POSTs (X-Pine-Signature: t=<unix>,v1=<hex HMAC-SHA256
// over "<t>.<raw body>">), retried after 1 s, 5 s and 30 s while the receiver fails, each attempt in the
// delivery log; a replay sends the logged body again, signed anew, as one more attempt.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { appendAudit } from './audit.ts';
import type { Answer, Ctx } from './http-kit.ts';
import { halt, isoUsec, ok, sortedJson } from './http-kit.ts';
import type { Attempt, Delivery, PineState, Webhook } from './state.ts';
import { Changeset } from './validate.ts';

export const EVENT_NAMES = [
  'connection.created',
  'connection.activated',
  'connection.paused',
  'connection.revoked',
  'order.created',
  'order.paid',
];

export function sign(key: string, t: number, body: string): string {
  return `t=${t},v1=${createHmac('sha256', key).update(`${t}.${body}`).digest('hex')}`;
}

function view(w: Webhook, withKey: boolean) {
  const out: Record<string, unknown> = {
    id: w.id,
    url: w.url,
    events: w.events,
    status: 'enabled',
    createdAt: w.createdAt,
  };
  if (withKey) out.signingKey = w.signingKey;
  return out;
}

function deliveryView(d: Delivery) {
  const { body: _body, ...rest } = d;
  return { ...rest, attemptCount: d.attempts.length };
}

function ownWebhook(ctx: Ctx, state: PineState): Webhook {
  const w = state.webhooks.find((x) => x.id === ctx.params.id && x.tenant === ctx.tenant && !x.deleted);
  if (w === undefined) halt('not_found', 'No webhook receiver with this id', 'id: unknown for this tenant');
  return w;
}

export function registerWebhook(ctx: Ctx, state: PineState): Answer {
  const cs = new Changeset(ctx.body);
  const url = cs.text('url', 10, 2048);
  const events = cs.textList('events', 1, EVENT_NAMES.length, 2, 120);
  if (url !== undefined && !/^https?:\/\/[^\s/]+(\/\S*)?$/i.test(url))
    cs.errors.push('url: must be an http or https address');
  for (const e of events ?? []) {
    if (!EVENT_NAMES.includes(e)) cs.errors.push(`events: unknown event name (known: ${EVENT_NAMES.join(', ')})`);
  }
  cs.check();
  const w: Webhook = {
    id: randomUUID(),
    tenant: ctx.tenant ?? '',
    url: url ?? '',
    events: [...new Set(events)],
    signingKey: `whsec_${randomBytes(24).toString('base64url')}`,
    createdAt: isoUsec(Date.now()),
    deleted: false,
  };
  state.webhooks.push(w);
  appendAudit(state, w.tenant, ctx.clientId ?? '', 'webhook.created', { type: 'webhook', id: w.id });
  return ok(view(w, true));
}

export function listWebhooks(ctx: Ctx, state: PineState): Answer {
  const webhooks = state.webhooks.filter((w) => w.tenant === ctx.tenant && !w.deleted).map((w) => view(w, false));
  return ok({ count: webhooks.length, webhooks, next: null });
}

export function showWebhook(ctx: Ctx, state: PineState): Answer {
  return ok(view(ownWebhook(ctx, state), false));
}

export function deleteWebhook(ctx: Ctx, state: PineState): Answer {
  const w = ownWebhook(ctx, state);
  w.deleted = true;
  appendAudit(state, w.tenant, ctx.clientId ?? '', 'webhook.deleted', { type: 'webhook', id: w.id });
  return ok({ id: w.id, deleted: true });
}

/** The delivery log came with 2026-07-01: a caller pinned to 2026-06-12 does not see it. */
function sinceCurrent(ctx: Ctx): void {
  if (ctx.version === '2026-06-12') {
    halt(
      'not_found',
      'The delivery log is not part of version 2026-06-12',
      undefined,
      'Send Service-Version: 2026-07-01.',
    );
  }
}

export function listDeliveries(ctx: Ctx, state: PineState): Answer {
  sinceCurrent(ctx);
  const w = ownWebhook(ctx, state);
  const deliveries = state.deliveries.filter((d) => d.webhookId === w.id).map(deliveryView);
  return ok({ webhookId: w.id, count: deliveries.length, deliveries, next: null });
}

export function showDelivery(ctx: Ctx, state: PineState): Answer {
  sinceCurrent(ctx);
  const w = ownWebhook(ctx, state);
  const d = state.deliveries.find((x) => x.id === ctx.params.deliveryId && x.webhookId === w.id);
  if (d === undefined) halt('not_found', 'No delivery with this id for this receiver', 'deliveryId: unknown');
  return ok(deliveryView(d));
}

export function replayDelivery(ctx: Ctx, state: PineState): Answer {
  sinceCurrent(ctx);
  const w = ownWebhook(ctx, state);
  const d = state.deliveries.find((x) => x.id === ctx.params.deliveryId && x.webhookId === w.id);
  if (d === undefined) halt('not_found', 'No delivery with this id for this receiver', 'deliveryId: unknown');
  appendAudit(state, w.tenant, ctx.clientId ?? '', 'delivery.replayed', { type: 'delivery', id: d.id });
  if (state.options.replayAsNewDelivery === true) {
    // As an Oban team would: a new job, a new delivery of the same event and body, pointing at the original.
    const copy: Delivery = { ...d, id: randomUUID(), status: 'pending', attempts: [], createdAt: isoUsec(Date.now()) };
    state.deliveries.push(copy);
    send(state, w, copy, 'replay');
    return ok({ ...deliveryView(copy), replayOf: d.id });
  }
  const attempt = send(state, w, d, 'replay');
  return ok({ ...deliveryView(d), replayAttempt: attempt });
}

/** An event of a tenant: one delivery per receiver subscribed to it. */
export function dispatch(state: PineState, tenant: string, event: string, data: Record<string, unknown>): void {
  for (const w of state.webhooks) {
    if (w.tenant !== tenant || w.deleted || !w.events.includes(event)) continue;
    const eventId = randomUUID();
    const createdAt = isoUsec(Date.now());
    const d: Delivery = {
      id: randomUUID(),
      webhookId: w.id,
      eventId,
      event,
      body: sortedJson({ id: eventId, type: event, createdAt, tenant, data }),
      status: 'pending',
      attempts: [],
      createdAt,
    };
    state.deliveries.push(d);
    send(state, w, d, 'initial');
  }
}

function reasonOf(err: unknown): string {
  const code = (err as { cause?: { code?: string } }).cause?.code;
  if (code === 'ECONNREFUSED') return 'connection_refused';
  if ((err as Error).name === 'TimeoutError') return 'timeout';
  return 'network_error';
}

/** One attempt: recorded at once (pending), completed when the receiver answers; failures retried. */
function send(state: PineState, w: Webhook, d: Delivery, trigger: Attempt['trigger']): number {
  const attempt: Attempt = {
    number: d.attempts.length + 1,
    trigger,
    at: isoUsec(Date.now()),
    responseStatus: null,
    error: null,
  };
  d.attempts.push(attempt);
  const finish = (success: boolean) => {
    if (success) d.status = 'succeeded';
    else if (d.status !== 'succeeded') d.status = 'failed';
    const retries = d.attempts.filter((a) => a.trigger !== 'replay').length - 1;
    const wait = state.options.retryDelaysMs[retries];
    if (!success && trigger !== 'replay' && wait !== undefined && !w.deleted) {
      d.status = 'pending';
      state.later(wait, () => send(state, w, d, 'retry'));
    }
  };
  const post = () => {
    attempt.at = isoUsec(Date.now());
    const t = Math.floor(Date.now() / 1000);
    fetch(w.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'pine-webhooks/1.0',
        'x-pine-signature': sign(w.signingKey, t, d.body),
        'x-pine-delivery': d.id,
        'x-pine-event': d.event,
      },
      body: d.body,
      signal: AbortSignal.timeout(10_000),
    })
      .then(async (r) => {
        await r.arrayBuffer().catch(() => undefined);
        attempt.responseStatus = r.status;
        finish(r.status >= 200 && r.status < 300);
      })
      .catch((err: unknown) => {
        attempt.error = reasonOf(err);
        finish(false);
      });
  };
  const delay = state.options.deliveryDelayMs ?? 0;
  if (delay > 0) state.later(delay, post);
  else post();
  return attempt.number;
}
