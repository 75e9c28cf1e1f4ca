// Signed deliveries (X-Rosewood-Signature: t=<unix>,v1=<hex HMAC-SHA256 of `${t}.${body}`>), the attempt
// log of each receiver and a redelivery of one attempt, as a Vapor `Client` POST plus a Fluent model.
import { createHmac } from 'node:crypto';
import { record } from './audit.ts';
import { Abort, type Ctx, isoDate, ok, type Rec, uuid } from './http.ts';
import { idempotent } from './limits.ts';
import type { Attempt, Store, Webhook } from './state.ts';
import { webhookOr404 } from './webhooks.ts';

export function signature(secret: string, body: string, t = Math.floor(Date.now() / 1000)): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

const attemptView = (a: Attempt): Rec => {
  const { body: _body, ...rest } = a;
  return rest;
};

/** POSTs one delivery and logs it; a failed POST stays in the log for a redelivery (no automatic retry). */
export async function deliver(
  store: Store,
  hook: Webhook,
  eventId: string,
  eventType: string,
  body: string,
  redeliveryOf: string | null,
): Promise<Attempt> {
  const previous = store.attempts.filter((a) => a.webhookId === hook.id && a.eventId === eventId).length;
  const attempt: Attempt = {
    id: uuid(),
    webhookId: hook.id,
    eventId,
    eventType,
    body,
    attempt: previous + 1,
    statusCode: null,
    success: false,
    createdAt: isoDate(),
    redeliveryOf,
  };
  store.attempts.push(attempt);
  try {
    const res = await fetch(hook.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Rosewood-Webhooks/1.0 (Vapor)',
        'x-rosewood-signature': signature(hook.secret, body),
        'x-rosewood-delivery': attempt.id,
        'x-rosewood-event': eventType,
      },
      body,
      signal: AbortSignal.timeout(5000),
    });
    attempt.statusCode = res.status;
    attempt.success = res.ok;
    await res.body?.cancel();
  } catch {
    attempt.statusCode = null;
  }
  return attempt;
}

/** GET /webhooks/:webhookID/attempts: newest first. */
export function listAttempts(ctx: Ctx, store: Store): void {
  const hook = webhookOr404(ctx, store);
  const attempts = store.attempts
    .filter((a) => a.webhookId === hook.id)
    .reverse()
    .map(attemptView);
  ok(ctx, { webhookId: hook.id, count: attempts.length, attempts });
}

/** POST /webhooks/:webhookID/attempts/:attemptID/retry: the same event body, freshly signed. */
export async function retryAttempt(ctx: Ctx, store: Store): Promise<void> {
  await idempotent(ctx, store, () => {
    const hook = webhookOr404(ctx, store);
    const original = store.attempts.find((a) => a.id === ctx.params.attemptID && a.webhookId === hook.id);
    if (!original) throw new Abort(404, 'Delivery attempt was not found.');
    record(store, ctx, 'webhook.redeliver', 'webhookAttempt', original.id);
    const pending = deliver(store, hook, original.eventId, original.eventType, original.body, original.id);
    void pending;
    const queued = store.attempts.at(-1);
    return { queued: true, attempt: queued ? attemptView(queued) : null };
  });
}
