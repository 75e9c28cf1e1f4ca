// Webhook subscriptions, signed deliveries, the delivery-attempt log and manual re-triggering.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { ApiError, isoTime } from './http-util.ts';

export const SIGNATURE_HEADER = 'X-Atlas-Signature';
export const DELIVERY_ID_HEADER = 'X-Atlas-Delivery-Id';
export const EVENT_TYPES = [
  'CONNECTION_CREATED',
  'CONNECTION_ACTIVATED',
  'CONNECTION_SUSPENDED',
  'order.created',
  'order.paid',
];
const KEY_VALIDITY_DAYS = 365;
const RETRY_DELAYS_MS = [2000, 10000];

export type Subscription = {
  subscriptionId: string;
  tenant: string;
  callbackUrl: string;
  eventTypes: string[];
  status: 'ACTIVE' | 'DELETED';
  createdAt: string;
  keyId: string;
  keyNotAfter: string;
  secret: string;
};
type Delivery = { deliveryId: string; subscriptionId: string; eventId: string; eventType: string; body: string };
type Attempt = {
  attemptId: string;
  deliveryId: string;
  eventId: string;
  eventType: string;
  attemptNumber: number;
  trigger: 'AUTOMATIC' | 'MANUAL';
  status: 'PENDING' | 'SUCCEEDED' | 'FAILED';
  responseStatusCode: number | null;
  failureReason: string | null;
  requestedAt: string;
  completedAt: string | null;
};

export function publicSubscription(s: Subscription): Record<string, unknown> {
  return {
    subscriptionId: s.subscriptionId,
    callbackUrl: s.callbackUrl,
    eventTypes: s.eventTypes,
    status: s.status,
    createdAt: s.createdAt,
    signingKey: { keyId: s.keyId, algorithm: 'HMAC-SHA256', notAfter: s.keyNotAfter },
  };
}

export function sign(secret: string, body: string, t: number): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

export function createWebhooks() {
  const subs = new Map<string, Subscription>();
  const deliveries = new Map<string, Delivery>();
  const attempts = new Map<string, Attempt[]>(); // by subscriptionId, oldest first
  const timers = new Set<NodeJS.Timeout>();

  function later(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  }

  function send(d: Delivery, trigger: Attempt['trigger'], attemptNumber: number): Attempt {
    const sub = subs.get(d.subscriptionId);
    const list = attempts.get(d.subscriptionId) ?? [];
    attempts.set(d.subscriptionId, list);
    const a: Attempt = {
      attemptId: `ATT-${randomBytes(6).toString('hex').toUpperCase()}`,
      deliveryId: d.deliveryId,
      eventId: d.eventId,
      eventType: d.eventType,
      attemptNumber,
      trigger,
      status: 'PENDING',
      responseStatusCode: null,
      failureReason: null,
      requestedAt: isoTime(),
      completedAt: null,
    };
    list.push(a);
    if (sub === undefined || sub.status !== 'ACTIVE') {
      Object.assign(a, { status: 'FAILED', failureReason: 'SUBSCRIPTION_INACTIVE', completedAt: isoTime() });
      return a;
    }
    // Signed at the moment of sending, over the unchanged body bytes.
    void (async () => {
      try {
        const res = await fetch(sub.callbackUrl, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            'User-Agent': 'Atlas-Webhooks/1.4',
            [SIGNATURE_HEADER]: sign(sub.secret, d.body, Math.floor(Date.now() / 1000)),
            [DELIVERY_ID_HEADER]: d.deliveryId,
            'X-Atlas-Event-Type': d.eventType,
          },
          body: d.body,
          signal: AbortSignal.timeout(5000),
        });
        await res.arrayBuffer().catch(() => undefined);
        a.responseStatusCode = res.status;
        a.status = res.ok ? 'SUCCEEDED' : 'FAILED';
        if (!res.ok) a.failureReason = 'NON_2XX_RESPONSE';
      } catch {
        a.status = 'FAILED';
        a.failureReason = 'RECEIVER_UNREACHABLE';
      }
      a.completedAt = isoTime();
      const delay = RETRY_DELAYS_MS[attemptNumber - 1];
      if (a.status === 'FAILED' && trigger === 'AUTOMATIC' && delay !== undefined) {
        later(delay, () => send(d, 'AUTOMATIC', attemptNumber + 1));
      }
    })();
    return a;
  }

  return {
    register(tenant: string, callbackUrl: string, eventTypes: string[]): Subscription {
      const now = Date.now();
      const s: Subscription = {
        subscriptionId: `WHS-${randomBytes(6).toString('hex').toUpperCase()}`,
        tenant,
        callbackUrl,
        eventTypes: [...new Set(eventTypes)],
        status: 'ACTIVE',
        createdAt: isoTime(new Date(now)),
        keyId: `key-${randomBytes(4).toString('hex')}`,
        keyNotAfter: isoTime(new Date(now + KEY_VALIDITY_DAYS * 86400000)),
        secret: `whsec_${randomBytes(24).toString('base64url')}`,
      };
      subs.set(s.subscriptionId, s);
      return s;
    },
    get(tenant: string, id: string): Subscription {
      const s = subs.get(id);
      if (s === undefined || s.tenant !== tenant || s.status !== 'ACTIVE')
        throw new ApiError('not_found', 'no such webhook subscription');
      return s;
    },
    list(tenant: string): Subscription[] {
      return [...subs.values()].filter((s) => s.tenant === tenant && s.status === 'ACTIVE');
    },
    remove(s: Subscription): void {
      s.status = 'DELETED';
    },
    attemptsOf(id: string): Attempt[] {
      return [...(attempts.get(id) ?? [])].reverse();
    },
    retrigger(tenant: string, deliveryId: string): Attempt {
      const d = deliveries.get(deliveryId);
      if (d === undefined || subs.get(d.subscriptionId)?.tenant !== tenant)
        throw new ApiError('not_found', 'no such delivery');
      this.get(tenant, d.subscriptionId);
      const n = (attempts.get(d.subscriptionId) ?? []).filter((a) => a.deliveryId === deliveryId).length + 1;
      return send(d, 'MANUAL', n);
    },
    emit(tenant: string, eventType: string, data: Record<string, unknown>): void {
      const eventId = `EVT-${randomUUID()}`;
      const occurredAt = isoTime();
      for (const s of subs.values()) {
        if (s.tenant !== tenant || s.status !== 'ACTIVE' || !s.eventTypes.includes(eventType)) continue;
        const body = JSON.stringify({ eventId, eventType, occurredAt, tenant, data });
        const d = {
          deliveryId: `DLV-${randomBytes(8).toString('hex').toUpperCase()}`,
          subscriptionId: s.subscriptionId,
          eventId,
          eventType,
          body,
        };
        deliveries.set(d.deliveryId, d);
        send(d, 'AUTOMATIC', 1);
      }
    },
    close(): void {
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}
export type Webhooks = ReturnType<typeof createWebhooks>;
