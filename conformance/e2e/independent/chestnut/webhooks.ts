// Webhook receivers and their delivery log (a sub-resource of the receiver: .../deliveryattempts). Every
// attempt is signed anew: header Chestnut-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">.
// Three attempts at most (at once, after 1 s, after 3 s); a redelivery is a new logged delivery of the same
// event body, pointing at the one it repeats.
import { createHmac, randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { ApiError } from './http-kit.ts';
import { decodeContinue, encodeContinue, type Revisions, rfc3339, uuidv7 } from './ids.ts';

export const WEBHOOK_EVENTS = ['connection.created', 'connection.activated', 'order.created', 'order.paid'];
export const SIGNATURE_HEADER = 'Chestnut-Signature';
export const DELIVERY_ID_HEADER = 'Chestnut-Delivery-Id';
const BACKOFF_MS = [0, 1000, 3000];

export interface Receiver {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  signingKey: string;
  createdAt: string;
  resourceVersion: string;
}

export interface Delivery {
  id: string;
  webhookId: string;
  eventId: string;
  event: string;
  state: 'Pending' | 'Succeeded' | 'Failed';
  attempts: number;
  lastResponseStatus: number | null;
  lastError: string | null;
  redeliveryOf: string | null;
  createdAt: string;
  updatedAt: string;
  resourceVersion: string;
}

export function sign(key: string, t: number, body: string): string {
  return `t=${t},v1=${createHmac('sha256', key).update(`${t}.${body}`).digest('hex')}`;
}

export class Webhooks {
  private readonly receivers = new Map<string, Receiver>();
  private readonly deliveries = new Map<string, Delivery>();
  private readonly bodies = new Map<string, string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly rv: Revisions;

  private readonly relayDelayMs: number;

  /** relayDelayMs: an outbox relay's lag before the first attempt (0: at once). */
  constructor(rv: Revisions, relayDelayMs = 0) {
    this.rv = rv;
    this.relayDelayMs = relayDelayMs;
  }

  register(tenant: string, url: string, events: string[]): Receiver {
    const r: Receiver = {
      id: uuidv7(),
      tenant,
      url,
      events,
      signingKey: `chk_${randomBytes(32).toString('base64url')}`,
      createdAt: rfc3339(),
      resourceVersion: this.rv.next(),
    };
    this.receivers.set(r.id, r);
    return r;
  }

  /** The receiver of this tenant, or 404 (another tenant's receiver does not exist for the caller). */
  get(tenant: string, id: string): Receiver {
    const r = this.receivers.get(id);
    if (r === undefined || r.tenant !== tenant)
      throw new ApiError('not_found', 'the entry does not exist', `no webhook receiver ${id} for this tenant`);
    return r;
  }

  list(tenant: string): Receiver[] {
    return [...this.receivers.values()].filter((r) => r.tenant === tenant);
  }

  remove(tenant: string, id: string): Receiver {
    const r = this.get(tenant, id);
    this.receivers.delete(id);
    return r;
  }

  /** Fans an event out to every receiver of the tenant subscribed to it. */
  emit(tenant: string, event: string, object: Record<string, unknown>): void {
    const eventId = uuidv7();
    const body = JSON.stringify({
      apiVersion: 'webhooks.chestnut/v1',
      kind: 'Event',
      id: eventId,
      type: event,
      occurredAt: rfc3339(),
      tenant,
      object,
    });
    for (const r of this.receivers.values()) {
      if (r.tenant === tenant && r.events.includes(event)) this.start(r, eventId, event, body, null);
    }
  }

  deliveryLog(
    tenant: string,
    webhookId: string,
    query: URLSearchParams,
  ): { data: Record<string, unknown>; next?: string } {
    this.get(tenant, webhookId);
    const token = query.get('continue');
    const offset = token === null ? 0 : decodeContinue(token);
    if (offset === undefined) throw new ApiError('invalid_request', 'invalid continue token');
    const rawLimit = query.get('limit');
    const limit = rawLimit === null ? 100 : Number(rawLimit);
    if (rawLimit !== null && (!/^\d+$/.test(rawLimit) || limit < 1 || limit > 500))
      throw new ApiError('invalid_request', 'invalid limit', 'limit must be an integer from 1 to 500');
    const all = [...this.deliveries.values()].filter((d) => d.webhookId === webhookId);
    const items = all.slice(offset, offset + limit);
    const end = offset + items.length;
    const next = end < all.length ? encodeContinue(end, this.rv.next()) : undefined;
    return {
      next,
      data: {
        kind: 'DeliveryAttemptList',
        webhookId,
        count: items.length,
        items,
        metadata: { continue: next ?? '', remainingItemCount: all.length - end },
      },
    };
  }

  redeliver(tenant: string, webhookId: string, deliveryId: string): Delivery {
    const r = this.get(tenant, webhookId);
    const d = this.deliveries.get(deliveryId);
    const body = this.bodies.get(deliveryId);
    if (d === undefined || d.webhookId !== r.id || body === undefined)
      throw new ApiError('not_found', 'the entry does not exist', `no delivery ${deliveryId} of this receiver`);
    return this.start(r, d.eventId, d.event, body, d.id);
  }

  close(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private start(r: Receiver, eventId: string, event: string, body: string, redeliveryOf: string | null): Delivery {
    const now = rfc3339();
    const d: Delivery = {
      id: uuidv7(),
      webhookId: r.id,
      eventId,
      event,
      state: 'Pending',
      attempts: 0,
      lastResponseStatus: null,
      lastError: null,
      redeliveryOf,
      createdAt: now,
      updatedAt: now,
      resourceVersion: this.rv.next(),
    };
    this.deliveries.set(d.id, d);
    this.bodies.set(d.id, body);
    this.schedule(r, d, body, 0);
    return d;
  }

  private schedule(r: Receiver, d: Delivery, body: string, attempt: number): void {
    const t = setTimeout(
      () => {
        this.timers.delete(t);
        void this.attempt(r, d, body, attempt);
      },
      (BACKOFF_MS[attempt] ?? 0) + (attempt === 0 ? this.relayDelayMs : 0),
    );
    this.timers.add(t);
  }

  private async attempt(r: Receiver, d: Delivery, body: string, attempt: number): Promise<void> {
    const status = await post(r.url, body, {
      'content-type': 'application/json',
      'user-agent': 'chestnut-webhooks/1.0',
      [SIGNATURE_HEADER]: sign(r.signingKey, Math.floor(Date.now() / 1000), body),
      [DELIVERY_ID_HEADER]: d.id,
      'Chestnut-Event': d.event,
      'Chestnut-Webhook-Id': r.id,
    });
    d.attempts = attempt + 1;
    d.updatedAt = rfc3339();
    d.resourceVersion = this.rv.next();
    d.lastResponseStatus = typeof status === 'number' ? status : null;
    d.lastError = typeof status === 'number' ? null : status;
    const success = typeof status === 'number' && status >= 200 && status < 300;
    if (success) d.state = 'Succeeded';
    else if (attempt + 1 < BACKOFF_MS.length && this.receivers.has(r.id)) this.schedule(r, d, body, attempt + 1);
    else d.state = 'Failed';
  }
}

/** Posts the body; the status, or a short reason without addresses (nothing internal leaves the service). */
function post(url: string, body: string, headers: Record<string, string>): Promise<number | string> {
  return new Promise((resolve) => {
    const req = request(
      url,
      { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, timeout: 5000 },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (e) => resolve(e.message === 'timeout' ? 'receiver timed out' : 'receiver unreachable'));
    req.end(body);
  });
}
