// Webhook receivers and their deliveries. Each delivery is a CloudEvents 1.0 structured-mode request
// (application/cloudevents+json) signed in `ce-signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.body">`.
// Failed attempts are retried after 1 s and 5 s; every attempt is kept in the delivery log, and a delivery can
// be sent again with the AIP custom method POST /webhook-deliveries/{id}:retry.
import { createHmac, randomBytes } from 'node:crypto';
import type { Access } from './auth.ts';
import { invalid, newId, notFound, pageSize } from './http-util.ts';
import type { CloudEvent } from './stream.ts';

export const EVENT_TYPES = [
  'com.network.connection.v1.created',
  'com.network.connection.v1.ready',
  'com.network.connection.v1.paused',
  'com.network.order.v1.created',
  'com.network.order.v1.paid',
];
export const SIGNATURE_HEADER = 'ce-signature';
const RETRY_DELAYS_MS = [1000, 5000];

interface Webhook {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  createTime: string;
  signingKey: string;
  deleted: boolean;
}

interface Attempt {
  attemptTime: string;
  trigger: 'AUTOMATIC' | 'MANUAL_RETRY';
  responseStatus: number | null;
  error?: string;
}

interface Delivery {
  id: string;
  webhook: string;
  tenant: string;
  eventId: string;
  eventType: string;
  state: 'PENDING' | 'SUCCEEDED' | 'FAILED';
  createTime: string;
  attempts: Attempt[];
  body: string;
}

export function sign(key: string, t: number, body: string): string {
  return `t=${t},v1=${createHmac('sha256', key).update(`${t}.${body}`).digest('hex')}`;
}

/** binary: CloudEvents binary mode; aipNames: resources carry only their AIP `name` (no `id`), lists their plural. */
export function createWebhooks(binary = false, aipNames = false) {
  const hooks = new Map<string, Webhook>();
  const deliveries = new Map<string, Delivery>();
  const timers = new Set<NodeJS.Timeout>();

  const view = (w: Webhook) => ({
    ...(aipNames ? {} : { id: w.id }),
    name: `webhooks/${w.id}`,
    url: w.url,
    events: w.events,
    state: w.deleted ? 'DELETED' : 'ACTIVE',
    createTime: w.createTime,
  });
  const dview = (d: Delivery) => {
    const { body: _b, tenant: _t, id, ...rest } = d;
    const ids = aipNames ? { webhook: `webhooks/${d.webhook}` } : { id };
    return { ...rest, ...ids, name: `webhookDeliveries/${id}`, attempts: d.attempts.map((a) => ({ ...a })) };
  };

  function register(access: Access, body: Record<string, unknown>) {
    const url = body.url;
    if (typeof url !== 'string' || url.length < 8 || url.length > 2048)
      throw invalid('url: an absolute http(s) URL, at most 2048 characters');
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw invalid('url: an absolute http(s) URL');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw invalid('url: an absolute http(s) URL');
    const events = body.events;
    if (!Array.isArray(events) || events.length < 1 || events.length > EVENT_TYPES.length)
      throw invalid(`events: 1 to ${EVENT_TYPES.length} event types`);
    for (const e of events)
      if (typeof e !== 'string' || !EVENT_TYPES.includes(e)) throw invalid(`events: one of ${EVENT_TYPES.join(', ')}`);
    const w: Webhook = {
      id: newId('whk'),
      tenant: access.tenant,
      url,
      events: [...new Set(events as string[])],
      createTime: new Date().toISOString(),
      signingKey: `rwsk_${randomBytes(32).toString('hex')}`,
      deleted: false,
    };
    hooks.set(w.id, w);
    // The key is in this answer only (and in its idempotent replay): GET never shows it.
    return { ...view(w), signingKey: w.signingKey, signatureHeader: SIGNATURE_HEADER };
  }

  function owned(access: Access, id: string): Webhook {
    const w = hooks.get(id);
    if (!w || w.tenant !== access.tenant || w.deleted) throw notFound(`webhooks/${id}`);
    return w;
  }

  function attempt(d: Delivery, trigger: Attempt['trigger'], retriesLeft: number): void {
    const w = hooks.get(d.webhook);
    if (!w || w.deleted) return;
    const t = Math.floor(Date.now() / 1000);
    const a: Attempt = { attemptTime: new Date().toISOString(), trigger, responseStatus: null };
    d.attempts.push(a);
    d.state = 'PENDING';
    const event = JSON.parse(d.body) as CloudEvent;
    // Structured mode sends the whole envelope; binary mode (REDWOOD_WEBHOOK_BINARY) only its data, the
    // attributes in ce-* headers. The signature covers the body actually sent.
    const body = binary ? JSON.stringify(event.data) : d.body;
    const attributes: Record<string, string> = binary
      ? { 'ce-source': event.source, 'ce-subject': event.subject, 'ce-time': event.time }
      : {};
    fetch(w.url, {
      method: 'POST',
      headers: {
        'content-type': binary ? 'application/json; charset=utf-8' : 'application/cloudevents+json; charset=utf-8',
        [SIGNATURE_HEADER]: sign(w.signingKey, t, body),
        'ce-id': event.id,
        'ce-type': event.type,
        'ce-specversion': '1.0',
        ...attributes,
        'user-agent': 'redwood-webhooks/1.0',
      },
      body,
      signal: AbortSignal.timeout(5000),
    })
      .then(async (r) => {
        await r.arrayBuffer().catch(() => undefined);
        a.responseStatus = r.status;
        if (r.ok) d.state = 'SUCCEEDED';
        else throw new Error(`HTTP ${r.status}`);
      })
      .catch((e: Error) => {
        a.error = e.message;
        d.state = 'FAILED';
        const delay = RETRY_DELAYS_MS[RETRY_DELAYS_MS.length - retriesLeft];
        if (retriesLeft > 0 && delay !== undefined) {
          const timer = setTimeout(() => {
            timers.delete(timer);
            attempt(d, 'AUTOMATIC', retriesLeft - 1);
          }, delay);
          timers.add(timer);
        }
      });
  }

  /** Stream listener: one delivery per subscribed receiver of the event's tenant. */
  function onEvent(tenant: string, event: CloudEvent): void {
    for (const w of hooks.values()) {
      if (w.deleted || w.tenant !== tenant || !w.events.includes(event.type)) continue;
      const d: Delivery = {
        id: newId('dlv'),
        webhook: w.id,
        tenant,
        eventId: event.id,
        eventType: event.type,
        state: 'PENDING',
        createTime: new Date().toISOString(),
        attempts: [],
        body: JSON.stringify(event),
      };
      deliveries.set(d.id, d);
      attempt(d, 'AUTOMATIC', RETRY_DELAYS_MS.length);
    }
  }

  function list(access: Access) {
    return [...hooks.values()].filter((w) => w.tenant === access.tenant && !w.deleted).map(view);
  }

  function get(access: Access, id: string) {
    return view(owned(access, id));
  }

  function remove(access: Access, id: string) {
    const w = owned(access, id);
    w.deleted = true;
    return view(w);
  }

  /** GET /webhook-deliveries?webhook=<id>: newest first, AIP paging by pageSize and pageToken. */
  function log(access: Access, q: URLSearchParams) {
    const webhook = q.get('webhook')?.replace(/^webhooks\//, '');
    if (!webhook) throw invalid('webhook: required query parameter (the receiver id)');
    owned(access, webhook);
    const size = pageSize(q.get('pageSize'), 'pageSize');
    const all = [...deliveries.values()].filter((d) => d.webhook === webhook).reverse();
    const token = q.get('pageToken');
    const start = token ? Number(Buffer.from(token, 'base64url').toString()) : 0;
    if (!Number.isInteger(start) || start < 0) throw invalid('pageToken: not a token of this list');
    const page = all.slice(start, start + size);
    const next = start + size < all.length ? Buffer.from(String(start + size)).toString('base64url') : '';
    const list = page.map(dview);
    const field = aipNames ? { webhookDeliveries: list } : { deliveries: list };
    return { webhook: aipNames ? `webhooks/${webhook}` : webhook, count: page.length, ...field, nextPageToken: next };
  }

  function retry(access: Access, id: string) {
    const d = deliveries.get(id.replace(/^webhookDeliveries\//, ''));
    if (!d || d.tenant !== access.tenant) throw notFound(`webhookDeliveries/${id}`);
    owned(access, d.webhook);
    attempt(d, 'MANUAL_RETRY', 0);
    return dview(d);
  }

  function close(): void {
    for (const t of timers) clearTimeout(t);
    timers.clear();
  }

  return { register, list, get, remove, log, retry, onEvent, close };
}
