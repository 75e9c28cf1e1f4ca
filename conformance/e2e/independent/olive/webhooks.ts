// Webhook receivers and deliveries. A delivery is a job (River-style): attempted at once, retried on a
// non-2xx answer or a network error after retryBaseMs * 4^n plus up to 25 % jitter, three retries at most.
// Signature: Olive-Signature: t=<unix>,v1=<hex HMAC-SHA256(key, "<t>.<raw body>")>.
import { createHmac } from 'node:crypto';
import { appendAudit } from './audit.ts';
import type { Ctx } from './mux.ts';
import { type DeliveryRow, rowId, type State, schedule, type WebhookRow } from './state.ts';
import type { Hub } from './stream.ts';
import { invalid, marshal, nextId, notFound, now, randomToken } from './util.ts';
import { object } from './validate.ts';

export const WEBHOOK_EVENTS = ['connection.created', 'connection.activated', 'order.created', 'order.paid'];
const MAX_RETRIES = 3;

function webhookView(w: WebhookRow): Record<string, unknown> {
  return { id: w.id, url: w.url, events: w.events, status: 'enabled', createdAt: w.createdAt };
}

function deliveryView(d: DeliveryRow): Record<string, unknown> {
  const last = d.attempts.at(-1);
  return {
    id: d.id,
    webhookId: d.webhookId,
    eventId: d.eventId,
    event: d.event,
    status: d.status,
    attemptCount: d.attempts.length,
    lastResponseStatus: last ? last.responseStatus : null,
    attempts: d.attempts,
    redeliveryOf: d.redeliveryOf ?? null,
    createdAt: d.createdAt,
  };
}

export function createWebhooks(state: State, hub: Hub) {
  async function attempt(d: DeliveryRow, retry: number): Promise<void> {
    const hook = state.webhooks.find((w) => w.id === d.webhookId && w.tenant === d.tenant);
    if (!hook || hook.deleted || state.closed) return;
    const t = Math.floor(Date.now() / 1000);
    const sig = createHmac('sha256', hook.signingKey).update(`${t}.${d.body}`).digest('hex');
    const at = now(state.options.utcOffsetMinutes).text;
    try {
      const res = await fetch(hook.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'olive-webhooks/1.0',
          'olive-signature': `t=${t},v1=${sig}`,
          'olive-delivery-id': d.id,
          'olive-event': d.event,
        },
        body: d.body,
        signal: AbortSignal.timeout(5000),
      });
      await res.arrayBuffer().catch(() => undefined);
      d.attempts.push({ at, responseStatus: res.status });
      if (res.ok) {
        d.status = 'succeeded';
        return;
      }
    } catch {
      d.attempts.push({ at, responseStatus: null, error: 'no answer' });
    }
    if (retry >= MAX_RETRIES) {
      d.status = 'failed';
      return;
    }
    const wait = state.options.retryBaseMs * 4 ** retry;
    schedule(state, wait + Math.random() * wait * 0.25, () => void attempt(d, retry + 1));
  }

  function enqueue(hook: WebhookRow, eventId: string, event: string, body: string, redeliveryOf?: string): DeliveryRow {
    const d: DeliveryRow = {
      id: rowId(state, hook.tenant, 'delivery', nextId),
      webhookId: hook.id,
      tenant: hook.tenant,
      eventId,
      event,
      body,
      status: 'pending',
      attempts: [],
      createdAt: now(state.options.utcOffsetMinutes).text,
    };
    if (redeliveryOf) d.redeliveryOf = redeliveryOf;
    state.deliveries.push(d);
    void attempt(d, 0);
    return d;
  }

  hub.onWebhookEvent((tenant, event, data) => {
    for (const hook of state.webhooks) {
      if (hook.deleted || hook.tenant !== tenant || !hook.events.includes(event)) continue;
      const eventId = nextId();
      const body = marshal(
        { id: eventId, type: event, createdAt: now(state.options.utcOffsetMinutes).text, tenant, data },
        state.options.goHtmlEscape,
      );
      enqueue(hook, eventId, event, body);
    }
  });

  function own(ctx: Ctx): WebhookRow {
    const hook = state.webhooks.find((w) => w.id === ctx.params.id && w.tenant === ctx.tenant && !w.deleted);
    if (!hook) throw notFound('webhook: no such receiver for this tenant');
    return hook;
  }

  return {
    register(ctx: Ctx): Record<string, unknown> {
      const body = object(ctx.body, ['url', 'events'], state.options.strictFields === true);
      const url = body.url;
      if (typeof url !== 'string' || url.length > 2048)
        throw invalid('url: must be a string of at most 2048 characters');
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        throw invalid('url: must be an absolute http or https URL');
      }
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
        throw invalid('url: must be an absolute http or https URL');
      const events = body.events;
      if (!Array.isArray(events) || events.length < 1 || events.length > WEBHOOK_EVENTS.length)
        throw invalid(`events: 1 to ${WEBHOOK_EVENTS.length} of ${WEBHOOK_EVENTS.join(', ')}`);
      for (const e of events)
        if (typeof e !== 'string' || !WEBHOOK_EVENTS.includes(e))
          throw invalid(`events: each one of ${WEBHOOK_EVENTS.join(', ')}`);
      const hook: WebhookRow = {
        id: rowId(state, ctx.tenant, 'webhook', nextId),
        tenant: ctx.tenant,
        url,
        events: [...new Set(events as string[])],
        signingKey: `whsk_${randomToken(32)}`,
        createdAt: now(state.options.utcOffsetMinutes).text,
        deleted: false,
      };
      state.webhooks.push(hook);
      appendAudit(
        state,
        ctx.tenant,
        'webhook.create',
        ctx.clientId,
        { type: 'webhook', id: hook.id },
        ctx.rid,
        ctx.key,
      );
      // The signing key is in this answer only (and in a replay of it under the same key).
      if (state.options.nestedWebhook) return { webhook: webhookView(hook), signingKey: hook.signingKey };
      return { ...webhookView(hook), signingKey: hook.signingKey };
    },
    list(ctx: Ctx): Record<string, unknown> {
      const webhooks = state.webhooks.filter((w) => w.tenant === ctx.tenant && !w.deleted).map(webhookView);
      return { count: webhooks.length, webhooks };
    },
    remove(ctx: Ctx): Record<string, unknown> {
      const hook = own(ctx);
      hook.deleted = true;
      appendAudit(
        state,
        ctx.tenant,
        'webhook.delete',
        ctx.clientId,
        { type: 'webhook', id: hook.id },
        ctx.rid,
        ctx.key,
      );
      return { ...webhookView(hook), status: 'deleted' };
    },
    deliveries(ctx: Ctx): Record<string, unknown> {
      const hook = own(ctx);
      const deliveries = state.deliveries
        .filter((d) => d.webhookId === hook.id && d.tenant === hook.tenant)
        .reverse()
        .map(deliveryView);
      return { webhookId: hook.id, count: deliveries.length, deliveries };
    },
    redeliver(ctx: Ctx): Record<string, unknown> {
      const hook = own(ctx);
      const d = state.deliveries.find(
        (x) => x.id === ctx.params.deliveryId && x.webhookId === hook.id && x.tenant === hook.tenant,
      );
      if (!d) throw notFound('delivery: no such delivery for this receiver');
      if (state.options.redeliverSameId) {
        // River's JobRetry: the same job runs once more; the log shows one more attempt.
        d.status = 'pending';
        void attempt(d, MAX_RETRIES);
        appendAudit(
          state,
          ctx.tenant,
          'delivery.retry',
          ctx.clientId,
          { type: 'delivery', id: d.id },
          ctx.rid,
          ctx.key,
        );
        return deliveryView(d);
      }
      const again = enqueue(hook, d.eventId, d.event, d.body, d.id);
      appendAudit(
        state,
        ctx.tenant,
        'delivery.retry',
        ctx.clientId,
        { type: 'delivery', id: again.id },
        ctx.rid,
        ctx.key,
      );
      return deliveryView(again);
    },
  };
}
