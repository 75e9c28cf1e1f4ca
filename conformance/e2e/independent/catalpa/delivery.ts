// Signed webhook deliveries. Headers follow Standard Webhooks (webhook-id: the message id, stable across retries
// and resends; webhook-timestamp) while the contract's signature value t=<unix>,v1=<hex HMAC-SHA256 over
// "<t>.<raw body>"> travels in a header named Signature. Retries: 2, after 1 s and 4 s. This sandbox only
// connects to loopback receivers (others are logged FAILED without a connection attempt).
import { createHmac } from 'node:crypto';
import { now, uuid } from './http.ts';
import { type Attempt, later, type State, type Webhook } from './store.ts';

const RETRY_DELAYS_MS = [1000, 4000];
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Sends an event to every receiver of the tenant subscribed to it. */
export function dispatch(state: State, tenant: string, type: string, data: Record<string, unknown>): void {
  for (const w of state.webhooks.values()) {
    if (w.tenant !== tenant || w.status !== 'ENABLED' || !w.events.includes(type)) continue;
    const messageId = uuid();
    // Standard Webhooks' payload has no id (the message id is the webhook-id header); catalpa adds it unless switched off.
    const event = state.options.standardPayload
      ? { type, timestamp: now(), data }
      : { id: messageId, type, timestamp: now(), data };
    const payload = JSON.stringify(event);
    send(state, w, messageId, type, payload, 'EVENT', 1);
  }
}

export function send(
  state: State,
  w: Webhook,
  messageId: string,
  type: string,
  payload: string,
  trigger: string,
  attemptNumber: number,
): Attempt {
  const attempt: Attempt = {
    id: uuid(),
    webhookId: w.id,
    messageId,
    eventType: type,
    attemptNumber,
    trigger,
    status: 'PENDING',
    responseStatus: null,
    attemptedAt: now(),
    payload,
  };
  state.attempts.get(w.id)?.push(attempt);
  const t = Math.floor(Date.now() / 1000);
  const v1 = createHmac('sha256', w.secret).update(`${t}.${payload}`).digest('hex');
  const target = new URL(w.url);
  const finish = (status: string, code: number | null): void => {
    attempt.status = status;
    attempt.responseStatus = code;
    const retries = trigger === 'RESEND' ? 0 : RETRY_DELAYS_MS.length;
    const delay = RETRY_DELAYS_MS[attemptNumber - 1];
    if (status === 'FAILED' && attemptNumber <= retries && delay !== undefined) {
      later(state, delay, () => {
        if (w.status === 'ENABLED') send(state, w, messageId, type, payload, 'RETRY', attemptNumber + 1);
      });
    }
  };
  if (!LOOPBACK.has(target.hostname)) {
    finish('FAILED', null);
    return attempt;
  }
  fetch(w.url, {
    method: 'POST',
    body: payload,
    signal: AbortSignal.timeout(5000),
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': 'Catalpa-Webhooks/1.0',
      'webhook-id': messageId,
      'webhook-timestamp': String(t),
      Signature: `t=${t},v1=${v1}`,
      // Standard Webhooks' own signature (v1,<base64 over id.timestamp.body>) for SDKs that verify it.
      ...(state.options.standardSignature
        ? {
            'webhook-signature': `v1,${createHmac('sha256', w.secret).update(`${messageId}.${t}.${payload}`).digest('base64')}`,
          }
        : {}),
    },
  }).then(
    async (r) => {
      await r.arrayBuffer().catch(() => undefined);
      finish(r.ok ? 'SUCCEEDED' : 'FAILED', r.status);
    },
    () => finish('FAILED', null),
  );
  return attempt;
}
