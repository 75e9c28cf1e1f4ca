// Deliveries: each is logged as an attempt, then POSTed by an `http:Client` with a retry config (3 retries,
// 1 s doubling, on 5xx or no answer), signed with `crypto:hmacSha256` over `${t}.${rawBody}`.
import { createHmac } from 'node:crypto';
import { civilNow, type Rec, type Store, uuid } from './state.ts';

export const SIGNATURE_HEADER = 'x-mesquite-signature';
const RETRY = { count: 3, intervalMs: 1000, backOffFactor: 2 };

export function send(
  store: Store,
  hook: Rec,
  event: string,
  eventId: string,
  payload: string,
  redeliveryOf?: string,
): Rec {
  const attempt: Rec = {
    id: uuid(),
    eventId,
    event,
    status: 'PENDING',
    attempts: 0,
    responseStatusCode: null,
    createdAt: civilNow(),
    lastAttemptAt: null,
    redeliveryOf: redeliveryOf ?? null,
    payload,
  };
  store.attempts.get(hook.id)?.push(attempt);
  const delay = store.options.deliveryDelayMs;
  if (delay > 0) setTimeout(() => void post(hook, attempt), delay).unref();
  else void post(hook, attempt);
  return attempt;
}

async function post(hook: Rec, attempt: Rec): Promise<void> {
  // This port of the service only ever calls loopback receivers (the test machine's own).
  if (!['127.0.0.1', 'localhost'].includes(new URL(hook.url).hostname)) {
    attempt.status = 'SKIPPED';
    return;
  }
  for (let n = 0; n <= RETRY.count; n++) {
    if (n > 0) await new Promise((r) => setTimeout(r, RETRY.intervalMs * RETRY.backOffFactor ** (n - 1)));
    const t = Math.floor(Date.now() / 1000);
    const v1 = createHmac('sha256', hook.signingKey).update(`${t}.${attempt.payload}`).digest('hex');
    attempt.attempts = n + 1;
    attempt.lastAttemptAt = civilNow();
    try {
      const res = await fetch(hook.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [SIGNATURE_HEADER]: `t=${t},v1=${v1}`,
          'x-mesquite-event': attempt.event,
          'x-mesquite-delivery-id': attempt.id,
          'ce-id': attempt.eventId,
        },
        body: attempt.payload,
        signal: AbortSignal.timeout(10_000),
      });
      await res.arrayBuffer();
      attempt.responseStatusCode = res.status;
      attempt.status = res.ok ? 'DELIVERED' : 'FAILED';
      if (res.status < 500) return;
    } catch {
      attempt.status = 'FAILED';
    }
  }
}
