// Webhook receivers: registration (the signing key shown once), removal, and the delivery log, which is the
// receiver's outbox rows, with a requeue that re-sends one delivery. Under 2026-06-12 there was no log.
import { type Call, type Domain, keyed, onlyFields } from './domain.ts';
import { ok, Refusal, textLens } from './http-kit.ts';
import { WEBHOOK_EVENTS } from './webhook-outbox.ts';

function registerWebhook(d: Domain, c: Call, raw: Record<string, unknown>, key: string | undefined) {
  const body = onlyFields(d, raw, ['url', 'events']);
  const url = textLens(body, 'url', 8, 2048);
  if (!/^https?:\/\/[^\s]+$/.test(url) || !URL.canParse(url))
    throw new Refusal('invalid_request', 'Lens failed: url', 'url: must be an http(s) URL');
  const events = body.events;
  if (!Array.isArray(events) || events.length < 1 || events.length > WEBHOOK_EVENTS.length) {
    throw new Refusal(
      'invalid_request',
      'Lens failed: events',
      `events: 1 to ${WEBHOOK_EVENTS.length} of ${WEBHOOK_EVENTS.join(', ')}`,
    );
  }
  for (const e of events) {
    if (typeof e !== 'string' || !WEBHOOK_EVENTS.includes(e)) {
      throw new Refusal('invalid_request', 'Lens failed: events', `events: one of ${WEBHOOK_EVENTS.join(', ')}`);
    }
  }
  const hook = d.outbox.register(c.tenant, url, [...new Set(events as string[])]);
  d.audit.append(c.tenant, {
    action: 'webhook.create',
    resourceType: 'webhook',
    resourceId: hook.id,
    clientId: c.clientId,
    idempotencyKey: key,
  });
  const { secret, tenant: _t, ...shown } = hook;
  return { webhook: shown, secret: { value: secret, algorithm: 'HMAC-SHA256', shownOnce: true } };
}

/** Routes the webhook calls; returns false when no route matches. */
export async function routeWebhooks(d: Domain, c: Call, method: string, path: string): Promise<boolean> {
  const hookMatch = /^\/webhooks\/([^/]+)(\/outbox(?:\/([^/]+)\/requeue)?)?$/.exec(path);
  if (method === 'POST' && path === '/webhooks') {
    // The stored replay may hide the key: it is issued exactly once.
    const redact = (x: unknown) =>
      d.redactSecretOnReplay
        ? { ...(x as object), secret: { value: 'redacted', algorithm: 'HMAC-SHA256', shownOnce: true } }
        : x;
    await keyed(d, c, true, (b, k) => registerWebhook(d, c, b, k), false, redact);
  } else if (hookMatch) {
    const hook = d.outbox.find(c.tenant, hookMatch[1] ?? '');
    if (!hook) throw new Refusal('not_found', 'webhook not found');
    if (c.ex.version === '2026-06-12' && hookMatch[2])
      throw new Refusal('not_found', 'the delivery log exists from 2026-07-01');
    if (method === 'DELETE' && !hookMatch[2]) {
      const key = d.idempotency.key(c.ex, true);
      d.outbox.remove(c.tenant, hook.id);
      d.audit.append(c.tenant, {
        action: 'webhook.delete',
        resourceType: 'webhook',
        resourceId: hook.id,
        clientId: c.clientId,
        idempotencyKey: key,
      });
      ok(c.ex, { deleted: hook.id }, { idempotencyKey: key });
    } else if (method === 'GET' && hookMatch[2] && !hookMatch[3]) {
      const deliveries = d.outbox.log(hook);
      ok(c.ex, { webhookId: hook.id, count: deliveries.length, deliveries });
    } else if (method === 'POST' && hookMatch[3]) {
      await keyed(
        d,
        c,
        true,
        () => {
          const r = d.outbox.requeue(hook, hookMatch[3] ?? '');
          if (!r) throw new Refusal('not_found', 'delivery not found');
          return { delivery: r };
        },
        true,
      );
    } else return false;
  } else return false;
  return true;
}
