// Webhook receivers and deliveries. Events go through a queue (Azure Service Bus in production, a
// timer here): each send is one delivery attempt in the log, signed when it leaves, retried after
// failures, and a logged attempt can be sent again by hand (trigger "manual").
import { randomBytes } from 'node:crypto';
import { azureTime, newId, offsetTimes } from './util.ts';
import { type Attempt, SIGNATURE_HEADER, signatureValue, type Webhook, type WebhookService } from './webhook-types.ts';

export type { Attempt, Webhook, WebhookService } from './webhook-types.ts';
export { EVENT_TYPES, SIGNATURE_HEADER } from './webhook-types.ts';

interface Message {
  body: string;
  headers: Record<string, string>;
  eventIds: string[];
  eventTypes: string[];
}

export function createWebhookService(opts: {
  deliveryDelayMs: number;
  retryDelaysMs: number[];
  batchWindowMs: number;
  binaryWebhooks: boolean;
  validationPing: boolean;
  offsetTimes: boolean;
}): WebhookService {
  const hooks = new Map<string, { tenant: string; key: string; hook: Webhook; attempts: Attempt[] }>();
  const messages = new Map<string, Message>();
  const pending = new Map<string, Record<string, unknown>[]>();
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;

  const later = (ms: number, fn: () => void): void => {
    const t = setTimeout(() => {
      timers.delete(t);
      if (!closed) fn();
    }, ms);
    t.unref();
    timers.add(t);
  };

  function enqueue(
    hookId: string,
    messageId: string,
    deliveryCount: number,
    trigger: string,
    delay: number,
  ): Attempt | undefined {
    const h = hooks.get(hookId);
    const m = messages.get(messageId);
    if (!h || !m) return undefined;
    const attempt: Attempt = {
      id: newId(),
      webhookId: hookId,
      messageId,
      eventIds: m.eventIds,
      eventTypes: m.eventTypes,
      deliveryCount,
      trigger,
      status: 'Queued',
      responseStatus: null,
      error: null,
      createdAt: azureTime(),
      completedAt: null,
    };
    h.attempts.push(attempt);
    later(delay, () => void send(h.key, h.hook, attempt));
    return attempt;
  }

  async function send(key: string, hook: Webhook, attempt: Attempt): Promise<void> {
    const m = messages.get(attempt.messageId);
    const body = m?.body ?? '{}';
    const t = Math.floor(Date.now() / 1000);
    try {
      const res = await fetch(hook.url, {
        method: 'POST',
        redirect: 'manual',
        signal: AbortSignal.timeout(5000),
        headers: {
          ...m?.headers,
          'user-agent': 'Spruce-Webhooks/1.0',
          [SIGNATURE_HEADER]: signatureValue(key, t, body),
          'spruce-delivery': attempt.id,
          'spruce-event': attempt.eventTypes.join(','),
        },
        body,
      });
      await res.arrayBuffer().catch(() => undefined);
      attempt.responseStatus = res.status;
      attempt.status = res.status >= 200 && res.status < 300 ? 'Succeeded' : 'Failed';
    } catch {
      attempt.status = 'Failed';
      attempt.error = 'The receiver could not be reached.';
    }
    attempt.completedAt = azureTime();
    const retryIn = opts.retryDelaysMs[attempt.deliveryCount - 1];
    if (
      attempt.status === 'Failed' &&
      attempt.trigger !== 'manual' &&
      retryIn !== undefined &&
      hooks.get(hook.id)?.hook.status === 'Active'
    ) {
      enqueue(hook.id, attempt.messageId, attempt.deliveryCount + 1, 'retry', retryIn);
    }
  }

  function send1(hookId: string, events: Record<string, unknown>[], batch: boolean, delay: number): void {
    const messageId = batch ? newId() : String(events[0]?.id);
    const first = events[0] ?? {};
    const binary = opts.binaryWebhooks && !batch;
    const json = JSON.stringify(batch ? events : binary ? first.data : first);
    const body = opts.offsetTimes ? offsetTimes(json) : json;
    let headers: Record<string, string> = {
      'content-type': `application/${batch ? 'cloudevents-batch+json' : 'cloudevents+json'}; charset=utf-8`,
    };
    if (binary) {
      // Binary mode: every attribute but data travels as a ce-* header.
      headers = { 'content-type': 'application/json; charset=utf-8' };
      for (const [k, v] of Object.entries(first))
        if (k !== 'data' && k !== 'datacontenttype') headers[`ce-${k}`] = String(v);
      if (opts.offsetTimes) headers['ce-time'] = offsetTimes(`${headers['ce-time']}"`).slice(0, -1);
    }
    messages.set(messageId, {
      body,
      headers,
      eventIds: events.map((e) => String(e.id)),
      eventTypes: events.map((e) => String(e.type)),
    });
    enqueue(hookId, messageId, 1, 'event', delay);
  }

  /** Event Grid style batching: the first event of a receiver opens a window, its end sends one batch. */
  function collect(hookId: string, event: Record<string, unknown>): void {
    const list = pending.get(hookId);
    if (list) {
      list.push(event);
      return;
    }
    pending.set(hookId, [event]);
    later(opts.batchWindowMs, () => {
      const events = pending.get(hookId) ?? [];
      pending.delete(hookId);
      send1(hookId, events, true, 0);
    });
  }

  return {
    register(tenant, url, events) {
      const hook: Webhook = { id: newId(), url, events: [...events], status: 'Active', createdAt: azureTime() };
      const key = `spk_${randomBytes(32).toString('base64url')}`;
      hooks.set(hook.id, { tenant, key, hook, attempts: [] });
      if (opts.validationPing) {
        const ping = {
          specversion: '1.0',
          id: newId(),
          type: 'Spruce.Webhooks.SubscriptionValidation',
          source: '/api/public/v1/webhooks',
          subject: `webhooks/${hook.id}`,
          time: azureTime(),
          datacontenttype: 'application/json',
          data: { webhookId: hook.id, validationCode: randomBytes(16).toString('hex') },
        };
        send1(hook.id, [ping], false, opts.deliveryDelayMs);
      }
      return { webhook: structuredClone(hook), signingKey: key };
    },
    get(tenant, id) {
      const h = hooks.get(id);
      return h && h.tenant === tenant ? structuredClone(h.hook) : undefined;
    },
    list(tenant) {
      return [...hooks.values()]
        .filter((h) => h.tenant === tenant && h.hook.status === 'Active')
        .map((h) => structuredClone(h.hook));
    },
    remove(tenant, id) {
      const h = hooks.get(id);
      if (!h || h.tenant !== tenant || h.hook.status !== 'Active') return false;
      h.hook.status = 'Deleted';
      return true;
    },
    emit(tenant, eventType, data) {
      for (const h of hooks.values()) {
        if (h.tenant !== tenant || h.hook.status !== 'Active' || !h.hook.events.includes(eventType)) continue;
        // CloudEvents 1.0, structured mode (what Event Grid and our Service Bus consumers speak).
        const event = {
          specversion: '1.0',
          id: newId(),
          type: eventType,
          source: '/api/public/v1/connections',
          subject: `webhooks/${h.hook.id}`,
          time: azureTime(),
          datacontenttype: 'application/json',
          data,
        };
        if (opts.batchWindowMs > 0) collect(h.hook.id, event);
        else send1(h.hook.id, [event], false, opts.deliveryDelayMs);
      }
    },
    attempts(tenant, webhookId) {
      const h = hooks.get(webhookId);
      if (!h || h.tenant !== tenant) return undefined;
      return structuredClone([...h.attempts].reverse());
    },
    redeliver(tenant, webhookId, attemptId) {
      const h = hooks.get(webhookId);
      if (!h || h.tenant !== tenant || h.hook.status !== 'Active') return undefined;
      const original = h.attempts.find((a) => a.id === attemptId);
      if (!original) return undefined;
      const a = enqueue(webhookId, original.messageId, original.deliveryCount + 1, 'manual', 0);
      return a && structuredClone(a);
    },
    close() {
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}
