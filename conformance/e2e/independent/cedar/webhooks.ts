// Webhook receivers of cedar: a signing key issued once (with a key id, rotatable), events of one receiver
// batched over a short window into one delivery ({batchId, events: [...]}), signed t=<unix>,v1=<hex HMAC-SHA256 over "<t>.<raw body>"> in cedar-signature, retried
// twice, recorded per attempt in a delivery log, and replayable on request.
import { createHmac, randomBytes } from 'node:crypto';
import { ApiError } from './http-kit.ts';
import { goTime, newId } from './ids.ts';
import type { Store } from './store.ts';

export const WEBHOOK_EVENTS = ['connection.created', 'connection.activated', 'order.created', 'order.paid'];
const RETRY_DELAYS_MS = [1000, 4000];
const BATCH_WINDOW_MS = 80;

export type Receiver = {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  state: string;
  keyId: string;
  key: string;
  createdAt: string;
};
export type Delivery = {
  id: string;
  webhookId: string;
  tenant: string;
  eventIds: string[];
  events: string[];
  body: string;
  state: string;
  attempts: { at: string; responseStatus: number | null; outcome: string }[];
  createdAt: string;
  replayOf: string | null;
};

export function createWebhooks(store: Store) {
  const receivers = new Map<string, Receiver>();
  const deliveries = new Map<string, Delivery>();
  const timers = new Set<NodeJS.Timeout>();

  function later(fn: () => void, ms: number): void {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  }

  async function attempt(d: Delivery, retriesLeft: number[]): Promise<void> {
    const r = receivers.get(d.webhookId);
    if (r?.state !== 'enabled') return;
    const t = Math.floor(Date.now() / 1000);
    const v1 = createHmac('sha256', r.key).update(`${t}.${d.body}`).digest('hex');
    let status: number | null = null;
    try {
      const res = await fetch(r.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'cedar-webhooks/1.0',
          'cedar-signature': `t=${t},v1=${v1}`,
          'cedar-signature-key-id': r.keyId,
          'cedar-delivery-id': d.id,
          'cedar-event': d.events.join(','),
        },
        body: d.body,
        signal: AbortSignal.timeout(5000),
      });
      status = res.status;
      await res.arrayBuffer().catch(() => undefined);
    } catch {
      status = null;
    }
    const ok = status !== null && status >= 200 && status < 300;
    // The log names the outcome, never the receiver's error text (it could name internal addresses).
    d.attempts.push({ at: goTime(), responseStatus: status, outcome: ok ? 'delivered' : 'failed' });
    d.state = ok ? 'delivered' : retriesLeft.length > 0 ? 'retrying' : 'failed';
    const [next, ...rest] = retriesLeft;
    if (!ok && next !== undefined) later(() => void attempt(d, rest), next);
  }

  function enqueue(r: Receiver, eventIds: string[], events: string[], body: string, replayOf: string | null): Delivery {
    const d: Delivery = {
      id: newId('dlv'),
      webhookId: r.id,
      tenant: r.tenant,
      eventIds,
      events,
      body,
      state: 'pending',
      attempts: [],
      createdAt: goTime(),
      replayOf,
    };
    deliveries.set(d.id, d);
    later(() => void attempt(d, RETRY_DELAYS_MS), 0);
    return d;
  }

  // Events of one receiver within BATCH_WINDOW_MS travel together in one delivery.
  const pending = new Map<string, { id: string; type: string; createdAt: string; data: Record<string, unknown> }[]>();
  store.eventHooks.push((tenant, kind, data) => {
    const targets = [...receivers.values()].filter(
      (r) => r.tenant === tenant && r.state === 'enabled' && r.events.includes(kind),
    );
    const event = { id: newId('evt'), type: kind, createdAt: goTime(), data };
    for (const r of targets) {
      const batch = pending.get(r.id);
      if (batch) {
        batch.push(event);
        continue;
      }
      pending.set(r.id, [event]);
      later(() => {
        const events = pending.get(r.id) ?? [];
        pending.delete(r.id);
        const body = JSON.stringify({ batchId: newId('bat'), webhookId: r.id, events });
        enqueue(
          r,
          events.map((e) => e.id),
          events.map((e) => e.type),
          body,
          null,
        );
      }, BATCH_WINDOW_MS);
    }
  });

  function view(r: Receiver): Record<string, unknown> {
    return { id: r.id, url: r.url, events: r.events, state: r.state, signingKeyId: r.keyId, createdAt: r.createdAt };
  }
  function deliveryView(d: Delivery): Record<string, unknown> {
    const last = d.attempts[d.attempts.length - 1];
    return {
      id: d.id,
      webhookId: d.webhookId,
      eventIds: d.eventIds,
      events: d.events,
      state: d.state,
      attemptCount: d.attempts.length,
      lastResponseStatus: last ? last.responseStatus : null,
      attempts: d.attempts,
      replayOf: d.replayOf,
      createdAt: d.createdAt,
    };
  }
  function own(tenant: string, id: string): Receiver {
    const r = receivers.get(id);
    if (!r || r.tenant !== tenant || r.state === 'deleted')
      throw new ApiError('not_found', 'no such webhook receiver for this tenant');
    return r;
  }

  return {
    receivers,
    register(tenant: string, url: string, events: string[]): Record<string, unknown> {
      const r: Receiver = {
        id: newId('whk'),
        tenant,
        url,
        events,
        state: 'enabled',
        keyId: newId('key'),
        key: `whsec_${randomBytes(32).toString('base64url')}`,
        createdAt: goTime(),
      };
      receivers.set(r.id, r);
      // The key appears in this answer only; later reads show its key id.
      return { ...view(r), signing: { algorithm: 'hmac-sha256', keyId: r.keyId, key: r.key } };
    },
    /** A new signing key, shown in this answer only; later deliveries are signed with it. */
    rotate(tenant: string, id: string): Record<string, unknown> {
      const r = own(tenant, id);
      r.keyId = newId('key');
      r.key = `whsec_${randomBytes(32).toString('base64url')}`;
      return { ...view(r), signing: { algorithm: 'hmac-sha256', keyId: r.keyId, key: r.key } };
    },
    list: (tenant: string) =>
      [...receivers.values()].filter((r) => r.tenant === tenant && r.state !== 'deleted').map(view),
    get: (tenant: string, id: string) => view(own(tenant, id)),
    remove(tenant: string, id: string): Record<string, unknown> {
      const r = own(tenant, id);
      r.state = 'deleted';
      return { id: r.id, state: r.state };
    },
    attempts(tenant: string, id: string): Record<string, unknown> {
      own(tenant, id);
      const list = [...deliveries.values()]
        .filter((d) => d.webhookId === id)
        .reverse()
        .map(deliveryView);
      return { webhookId: id, count: list.length, deliveries: list };
    },
    replay(tenant: string, deliveryId: string): Record<string, unknown> {
      const d = deliveries.get(deliveryId);
      if (!d || d.tenant !== tenant) throw new ApiError('not_found', 'no such delivery for this tenant');
      const r = own(tenant, d.webhookId);
      return deliveryView(enqueue(r, d.eventIds, d.events, d.body, d.id));
    },
    close(): void {
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}
export type Webhooks = ReturnType<typeof createWebhooks>;
