// Signed deliveries to registered receivers. Every try is one delivery attempt in the log (its id travels
// in X-Hemlock-Delivery); a failed try is retried twice (after 2 s and 10 s); a replay re-sends the logged
// body, signed anew at the time it is sent.
import { createHmac } from 'node:crypto';
import { request } from 'node:http';
import { appendAudit } from './audit.ts';
import { isoUsec, newId } from './http-kit.ts';
import { type DeliveryAttempt, later, type State, type Webhook } from './state.ts';

export const SIGNATURE_HEADER = 'X-Hemlock-Signature';
const RETRY_DELAYS_MS = [2_000, 10_000];
const TIMEOUT_MS = 5_000;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

export function sign(key: string, body: string, t = Math.floor(Date.now() / 1000)): string {
  return `t=${t},v1=${createHmac('sha256', key).update(`${t}.${body}`).digest('hex')}`;
}

export function deliverEvent(
  state: State,
  tenant: string,
  event: { id: string; type: string; occurredAt: string; data: Record<string, unknown> },
): void {
  for (const w of state.webhooks) {
    if (w.tenant !== tenant || !w.active || !w.events.includes(event.type)) continue;
    const body = JSON.stringify({
      id: event.id,
      type: event.type,
      occurredAt: event.occurredAt,
      webhookId: w.id,
      data: event.data,
    });
    tryDelivery(state, w, { eventId: event.id, event: event.type, body, attempt: 1 });
  }
}

export function tryDelivery(
  state: State,
  w: Webhook,
  a: { eventId: string; event: string; body: string; attempt: number; replayOf?: string },
): DeliveryAttempt {
  const attempt: DeliveryAttempt = {
    id: newId('da'),
    webhookId: w.id,
    eventId: a.eventId,
    event: a.event,
    attempt: a.attempt,
    status: 'pending',
    attemptedAt: isoUsec(),
    body: a.body,
  };
  if (a.replayOf !== undefined) attempt.replayOf = a.replayOf;
  state.attempts.push(attempt);
  const run = (): void =>
    void send(w, attempt).then((r) => {
      attempt.status = r.ok ? 'succeeded' : 'failed';
      if (r.status !== undefined) attempt.responseStatus = r.status;
      if (r.error !== undefined) attempt.error = r.error;
      const delay = RETRY_DELAYS_MS[a.attempt - 1];
      if (!r.ok && a.replayOf === undefined && delay !== undefined && w.active) {
        later(state, delay, () => {
          if (w.active) tryDelivery(state, w, { ...a, attempt: a.attempt + 1 });
        });
      }
    });
  if (state.options.deliveryDelayMs > 0) later(state, state.options.deliveryDelayMs, run);
  else run();
  return attempt;
}

function send(w: Webhook, a: DeliveryAttempt): Promise<{ ok: boolean; status?: number; error?: string }> {
  let url: URL;
  try {
    url = new URL(w.url);
  } catch {
    return Promise.resolve({ ok: false, error: 'invalid receiver address' });
  }
  // This deployment reaches loopback receivers only (a sandbox on one machine).
  if (!LOOPBACK.has(url.hostname) || url.protocol !== 'http:') {
    return Promise.resolve({ ok: false, error: 'receiver not reachable from this deployment' });
  }
  return new Promise((resolve) => {
    const req = request(
      url,
      {
        method: 'POST',
        timeout: TIMEOUT_MS,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(a.body),
          'user-agent': 'hemlock-webhooks/1.0',
          [SIGNATURE_HEADER]: sign(w.signingKey, a.body),
          'X-Hemlock-Event': a.event,
          'X-Hemlock-Delivery': a.id,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({ ok: (res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) < 300, status: res.statusCode }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (e) =>
      resolve({
        ok: false,
        error: e.message === 'timeout' ? 'receiver timed out' : 'connection to the receiver failed',
      }),
    );
    req.end(a.body);
  });
}

/** Re-sends a logged attempt as a new attempt (audited). */
export function replayAttempt(
  state: State,
  w: Webhook,
  original: DeliveryAttempt,
  actor: string,
  key: string,
): DeliveryAttempt {
  const a = tryDelivery(state, w, {
    eventId: original.eventId,
    event: original.event,
    body: original.body,
    attempt: 1,
    replayOf: original.id,
  });
  appendAudit(state, w.tenant, {
    action: 'webhook.delivery.replay',
    resourceType: 'delivery_attempt',
    resourceId: a.id,
    actor,
    idempotencyKey: key,
  });
  return a;
}

export function publicAttempt(a: DeliveryAttempt): Record<string, unknown> {
  const { body: _body, ...rest } = a;
  return { ...rest, payload: JSON.parse(a.body) };
}
