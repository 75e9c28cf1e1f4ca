// Webhooks: receivers (a DynamoDB table), deliveries queued on SQS and sent 0.5-2 s after the event by a
// worker Lambda, signed `X-Ivy-Signature: t=<unix>,v1=<hex hmac-sha256 of "t.body">`. A failed attempt is
// retried every 5 s, 3 times; every delivery is in the delivery log and can be triggered again.
import { createHmac } from 'node:crypto';
import { request } from 'node:http';
import { ApiError } from './http-kit.ts';
import { secret, ulid } from './ids.ts';

export const WEBHOOK_EVENTS = ['connection.requested', 'connection.active', 'order.created', 'order.paid'];

export interface WebhookOptions {
  queueMs: [number, number];
  retryEveryMs: number;
  retries: number;
}

interface Receiver {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  createdAt: string;
  signingKey: string;
}

interface Delivery {
  id: string;
  webhookId: string;
  tenant: string;
  eventId: string;
  event: string;
  body: string;
  status: 'queued' | 'succeeded' | 'retrying' | 'failed';
  attempts: number;
  lastStatusCode: number | null;
  createdAt: string;
  lastAttemptAt: string | null;
}

export function sign(key: string, t: number, body: string): string {
  return `t=${t},v1=${createHmac('sha256', key).update(`${t}.${body}`).digest('hex')}`;
}

function post(url: string, body: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    try {
      const req = request(url, { method: 'POST', headers, agent: false, timeout: 5000 }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', () => resolve(0));
      req.on('timeout', () => req.destroy());
      req.end(body);
    } catch {
      resolve(0);
    }
  });
}

export function createWebhooks(options: WebhookOptions) {
  const receivers = new Map<string, Receiver>();
  const deliveries = new Map<string, Delivery>();
  const timers = new Set<NodeJS.Timeout>();

  function later(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  }

  function queueDelay(): number {
    const [min, max] = options.queueMs;
    return min + Math.random() * (max - min);
  }

  async function attempt(d: Delivery, retriesLeft: number): Promise<void> {
    const receiver = receivers.get(d.webhookId);
    if (!receiver) return;
    const t = Math.floor(Date.now() / 1000);
    const status = await post(receiver.url, d.body, {
      'Content-Type': 'application/json',
      'Content-Length': String(Buffer.byteLength(d.body)),
      'User-Agent': 'ivy-webhooks/1.0',
      'X-Ivy-Signature': sign(receiver.signingKey, t, d.body),
      'X-Ivy-Delivery-Id': d.id,
      'X-Ivy-Event': d.event,
    });
    d.attempts += 1;
    d.lastStatusCode = status === 0 ? null : status;
    d.lastAttemptAt = new Date().toISOString();
    if (status >= 200 && status < 300) {
      d.status = 'succeeded';
    } else if (retriesLeft > 0) {
      d.status = 'retrying';
      later(options.retryEveryMs, () => void attempt(d, retriesLeft - 1));
    } else {
      d.status = 'failed';
    }
  }

  /** Validates a registration body: url an absolute http(s) URL, events 1 to 20 known names, nothing else. */
  function parseRegistration(body: Record<string, unknown>): { url: string; events: string[] } {
    const url = body.url;
    if (typeof url !== 'string' || url.length > 2048 || !/^https?:\/\/[^\s]+$/.test(url) || !URL.canParse(url)) {
      throw new ApiError('invalid_request', 'The field url is invalid.', 'url: an absolute http(s) URL');
    }
    const events = body.events;
    if (!Array.isArray(events) || events.length < 1 || events.length > 20) {
      throw new ApiError('invalid_request', 'The field events is invalid.', 'events: 1 to 20 event names');
    }
    for (const e of events) {
      if (typeof e !== 'string' || !WEBHOOK_EVENTS.includes(e)) {
        throw new ApiError(
          'invalid_request',
          'The field events is invalid.',
          `events: one of ${WEBHOOK_EVENTS.join(', ')}`,
        );
      }
    }
    for (const k of Object.keys(body)) {
      if (k !== 'url' && k !== 'events')
        throw new ApiError('invalid_request', `The field ${k} is invalid.`, `${k}: not a field of this request`);
    }
    return { url, events: [...(events as string[])] };
  }

  function register(tenant: string, input: { url: string; events: string[] }) {
    const { url, events } = input;
    const r: Receiver = {
      id: ulid(),
      tenant,
      url,
      events,
      createdAt: new Date().toISOString(),
      signingKey: secret('ivysk_', 32),
    };
    receivers.set(r.id, r);
    // The signing key is in this answer only; no read of a receiver ever shows it again.
    return { id: r.id, url: r.url, events: r.events, createdAt: r.createdAt, signingKey: r.signingKey };
  }

  /** An event of a tenant: one delivery per receiver subscribed to it, sent after the queue delay. */
  function emit(tenant: string, event: string, data: Record<string, unknown>): void {
    const eventId = ulid();
    const createdAt = new Date().toISOString();
    for (const r of receivers.values()) {
      if (r.tenant !== tenant || !r.events.includes(event)) continue;
      const body = JSON.stringify({ id: eventId, type: event, createdAt, tenant, data });
      const d: Delivery = {
        id: ulid(),
        webhookId: r.id,
        tenant,
        eventId,
        event,
        body,
        status: 'queued',
        attempts: 0,
        lastStatusCode: null,
        createdAt,
        lastAttemptAt: null,
      };
      deliveries.set(d.id, d);
      later(queueDelay(), () => void attempt(d, options.retries));
    }
  }

  function view(d: Delivery) {
    const { body: _body, tenant: _tenant, ...rest } = d;
    return rest;
  }

  /** GET /webhook-deliveries?webhookId=: the receiver's log, newest first; another tenant's receiver is 404. */
  function log(tenant: string, webhookId: string | null) {
    if (!webhookId)
      throw new ApiError('invalid_request', 'The query parameter webhookId is required.', 'webhookId: required');
    const r = receivers.get(webhookId);
    if (!r || r.tenant !== tenant)
      throw new ApiError('not_found', 'The webhook does not exist.', `webhookId: ${webhookId}`);
    const list = [...deliveries.values()]
      .filter((d) => d.webhookId === webhookId)
      .reverse()
      .map(view);
    return { webhookId, count: list.length, deliveries: list };
  }

  /** POST /webhook-deliveries/{id}/retry: the same event sent again (signed anew) after the queue delay. */
  function retry(tenant: string, deliveryId: string) {
    const d = deliveries.get(deliveryId);
    if (!d || d.tenant !== tenant)
      throw new ApiError('not_found', 'The delivery does not exist.', `deliveryId: ${deliveryId}`);
    d.status = 'queued';
    later(queueDelay(), () => void attempt(d, options.retries));
    return view(d);
  }

  function close(): void {
    for (const t of timers) clearTimeout(t);
  }

  return { parseRegistration, register, emit, log, retry, close };
}

export type Webhooks = ReturnType<typeof createWebhooks>;
