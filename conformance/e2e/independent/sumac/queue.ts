// The webhook queue worker: one job per delivery, signed at send time, retried with a backoff array
// ($tries = backoff.length + 1) until the receiver answers 2xx.
import { createHmac } from 'node:crypto';
import { request } from 'node:http';
import { request as requestTls } from 'node:https';
import { type DeliveryRow, later, nextId, type State } from './state.ts';
import { stamp } from './support.ts';

export const SIGNATURE_HEADER = 'X-Signature';
export const DELIVERY_HEADER = 'X-Webhook-Delivery';

/** The contract's form, nothing added: t=<unix-seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">. */
export function sign(secret: string, body: string, t: number): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

/** Records an event for every live receiver of the tenant subscribed to it and queues the deliveries. */
export function dispatchEvent(state: State, tenant: string, event: string, data: Record<string, unknown>): void {
  const eventId = nextId(state, 'evt');
  const body = JSON.stringify({ id: eventId, event, created_at: stamp(), data });
  for (const w of state.webhooks) {
    if (w.deleted || w.tenant !== tenant || !w.events.includes(event)) continue;
    const d = newDelivery(state, w.id, tenant, eventId, event, body, null);
    later(state, state.opts.queueDelayMs ?? 0, () => attempt(state, d));
  }
}

export function newDelivery(
  state: State,
  webhookId: string,
  tenant: string,
  eventId: string,
  event: string,
  body: string,
  retryOf: string | null,
): DeliveryRow {
  const d: DeliveryRow = {
    id: nextId(state, 'dlv'),
    webhookId,
    tenant,
    eventId,
    event,
    body,
    status: 'queued',
    attempts: [],
    retryOf,
    createdAt: stamp(),
  };
  state.deliveries.push(d);
  return d;
}

/** One attempt of the job; a failure releases it back onto the queue after the next backoff step. */
export function attempt(state: State, d: DeliveryRow): void {
  const w = state.webhooks.find((x) => x.id === d.webhookId);
  if (!w || w.deleted) {
    d.status = 'failed';
    return;
  }
  const n = d.attempts.length + 1;
  const t = Math.floor(Date.now() / 1000);
  const done = (code: number | null, error: string | null) => {
    d.attempts.push({ attempt: n, status_code: code, error, attempted_at: stamp() });
    if (code !== null && code >= 200 && code < 300) {
      d.status = 'delivered';
      return;
    }
    const wait = state.opts.backoff[n - 1];
    if (wait === undefined) {
      d.status = 'failed';
      return;
    }
    d.status = 'retrying';
    later(state, wait * 1000, () => attempt(state, d));
  };
  let url: URL;
  try {
    url = new URL(w.url);
  } catch {
    done(null, 'invalid url');
    return;
  }
  const send = url.protocol === 'https:' ? requestTls : request;
  const req = send(
    url,
    {
      method: 'POST',
      timeout: 5000,
      headers: {
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(d.body),
        'User-Agent': 'Sumac-Webhooks/1.0',
        [SIGNATURE_HEADER]: sign(w.secret, d.body, t),
        'X-Webhook-Event': d.event,
        [DELIVERY_HEADER]: d.id,
        'X-Webhook-Attempt': String(n),
      },
    },
    (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode ?? null, null));
    },
  );
  req.on('timeout', () => req.destroy(new Error('timeout')));
  req.on('error', (e: NodeJS.ErrnoException) => {
    if (d.attempts.length < n) done(null, e.code ?? 'request failed');
  });
  req.end(d.body);
}
