// Webhook endpoints per tenant, signed deliveries (header `webhook-signature: t=<unix>,v1=<hex>`), retries
// at 2 s and 10 s on a non-2xx answer or network error, a delivery log ("messages") and resending.
import { createHmac } from 'node:crypto';
import { HttpError } from './http-kit.ts';
import { iso, randomToken, uuidv7 } from './util.ts';

export const WEBHOOK_EVENTS = ['connection.created', 'connection.ready', 'order.created', 'order.paid'];

interface Endpoint {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  secret: string;
  createdAt: string;
}
interface Attempt {
  at: string;
  status: number | null;
  outcome: 'succeeded' | 'failed';
  trigger: 'initial' | 'retry' | 'manual';
}
interface Delivery {
  id: string;
  webhookId: string;
  eventType: string;
  payload: string;
  createdAt: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: Attempt[];
}

export function createWebhooks(retryDelaysMs: number[] = [2000, 10000]) {
  const endpoints = new Map<string, Endpoint>();
  const deliveries = new Map<string, Delivery>();
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;

  function publicEndpoint(e: Endpoint, withSecret: boolean) {
    const base = {
      id: e.id,
      url: e.url,
      events: e.events,
      createdAt: e.createdAt,
      signature: { header: 'webhook-signature', scheme: 't=<unix-seconds>,v1=<hex hmac-sha256>' },
    };
    return withSecret ? { ...base, secret: e.secret } : base;
  }

  function create(tenant: string, url: string, events: string[]) {
    const e: Endpoint = { id: uuidv7(), tenant, url, events, secret: `whsec_${randomToken(24)}`, createdAt: iso() };
    endpoints.set(e.id, e);
    return publicEndpoint(e, true);
  }

  function own(tenant: string, id: string): Endpoint {
    const e = endpoints.get(id);
    if (!e || e.tenant !== tenant)
      throw new HttpError(
        404,
        'not_found',
        'No such webhook endpoint for this tenant.',
        'Compare the identifier and the tenant header.',
      );
    return e;
  }

  async function attempt(d: Delivery, trigger: Attempt['trigger'], retryIndex: number): Promise<void> {
    const e = endpoints.get(d.webhookId);
    if (!e || closed) return;
    const t = Math.floor(Date.now() / 1000);
    const v1 = createHmac('sha256', e.secret).update(`${t}.${d.payload}`).digest('hex');
    let status: number | null = null;
    try {
      const res = await fetch(e.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': d.id,
          'webhook-timestamp': String(t),
          'webhook-signature': `t=${t},v1=${v1}`,
          'user-agent': 'dahlia-webhooks/1',
        },
        body: d.payload,
        signal: AbortSignal.timeout(5000),
      });
      status = res.status;
      await res.arrayBuffer().catch(() => undefined);
    } catch {
      status = null;
    }
    const success = status !== null && status >= 200 && status < 300;
    d.attempts.push({ at: iso(), status, outcome: success ? 'succeeded' : 'failed', trigger });
    d.status = success ? 'succeeded' : 'failed';
    const delay = retryDelaysMs[retryIndex];
    if (!success && trigger !== 'manual' && delay !== undefined && !closed) {
      d.status = 'pending';
      const timer = setTimeout(() => {
        timers.delete(timer);
        void attempt(d, 'retry', retryIndex + 1);
      }, delay);
      timers.add(timer);
    }
  }

  function dispatch(tenant: string, eventType: string, data: Record<string, unknown>): void {
    for (const e of endpoints.values()) {
      if (e.tenant !== tenant || !e.events.includes(eventType)) continue;
      const id = uuidv7();
      const payload = JSON.stringify({ id, type: eventType, timestamp: iso(), data });
      const d: Delivery = {
        id,
        webhookId: e.id,
        eventType,
        payload,
        createdAt: iso(),
        status: 'pending',
        attempts: [],
      };
      deliveries.set(id, d);
      void attempt(d, 'initial', 0);
    }
  }

  function log(tenant: string, webhookId: string) {
    own(tenant, webhookId);
    const list = [...deliveries.values()].filter((d) => d.webhookId === webhookId);
    return {
      webhookId,
      count: list.length,
      deliveries: list.map((d) => ({
        id: d.id,
        eventType: d.eventType,
        createdAt: d.createdAt,
        status: d.status,
        attempts: d.attempts,
      })),
    };
  }

  function resend(tenant: string, webhookId: string, deliveryId: string) {
    own(tenant, webhookId);
    const d = deliveries.get(deliveryId);
    if (!d || d.webhookId !== webhookId)
      throw new HttpError(404, 'not_found', 'No such delivery for this webhook endpoint.');
    void attempt(d, 'manual', 0);
    return { id: d.id, webhookId, eventType: d.eventType, status: 'queued', requestedAt: iso() };
  }

  function remove(tenant: string, id: string) {
    own(tenant, id);
    endpoints.delete(id);
    return { id, deleted: true };
  }

  function close(): void {
    closed = true;
    for (const t of timers) clearTimeout(t);
    timers.clear();
  }

  return {
    create,
    get: (tenant: string, id: string) => publicEndpoint(own(tenant, id), false),
    list: (tenant: string) =>
      [...endpoints.values()].filter((e) => e.tenant === tenant).map((e) => publicEndpoint(e, false)),
    dispatch,
    log,
    resend,
    remove,
    close,
  };
}
export type Webhooks = ReturnType<typeof createWebhooks>;
