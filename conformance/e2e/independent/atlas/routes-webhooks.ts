// Webhook routes: subscription, our own management paths, the delivery log and re-triggering.
import { ApiError } from './http-util.ts';
import type { Route } from './routes.ts';
import { onlyFields, text, textList } from './validate.ts';
import { EVENT_TYPES, publicSubscription } from './webhooks.ts';

const P = '/api/public/v1';

export const WEBHOOK_ROUTES: Route[] = [
  {
    method: 'POST',
    path: `${P}/webhooks`,
    auth: true,
    keyed: true,
    scope: 'webhooks:manage',
    purpose: 'Create a webhook subscription',
    handler: (c, s) => {
      onlyFields(c.body, ['url', 'events', 'description']);
      const url = text(c.body, 'url', 10, 2048);
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        throw new ApiError('invalid_request', 'request validation failed', {
          detail: 'url: must be an absolute http(s) URL',
        });
      }
      if (!['http:', 'https:'].includes(parsed.protocol))
        throw new ApiError('invalid_request', 'request validation failed', { detail: 'url: http or https only' });
      const events = textList(c.body, 'events', 1, 20, 2, 120);
      const unknown = events.filter((e) => !EVENT_TYPES.includes(e));
      if (unknown.length > 0)
        throw new ApiError('invalid_request', 'unknown event type', {
          detail: `events: allowed are ${EVENT_TYPES.join(', ')}`,
        });
      const sub = s.webhooks.register(c.tenant, url, events);
      s.audit.record(
        c.tenant,
        c.client.clientId,
        'WEBHOOK_SUBSCRIPTION_CREATE',
        'webhook-subscription',
        sub.subscriptionId,
        c.ctx.requestId,
      );
      const view = publicSubscription(sub);
      return { ...view, signingKey: { ...(view.signingKey as object), secret: sub.secret } };
    },
    // The signing key is issued exactly once: a replay repeats the answer without the secret.
    onReplay: (data) => {
      const d = structuredClone(data) as { signingKey: Record<string, unknown> };
      delete d.signingKey.secret;
      return d;
    },
  },
  {
    method: 'GET',
    path: `${P}/webhooks`,
    auth: true,
    keyed: false,
    scope: 'webhooks:manage',
    purpose: 'List webhook subscriptions',
    extension: true,
    handler: (c, s) => {
      const subscriptions = s.webhooks.list(c.tenant).map(publicSubscription);
      return { count: subscriptions.length, subscriptions };
    },
  },
  {
    method: 'GET',
    path: `${P}/webhooks/{subscriptionId}`,
    auth: true,
    keyed: false,
    scope: 'webhooks:manage',
    purpose: 'Read a webhook subscription',
    extension: true,
    handler: (c, s) => publicSubscription(s.webhooks.get(c.tenant, c.params.subscriptionId ?? '')),
  },
  {
    method: 'DELETE',
    path: `${P}/webhooks/{subscriptionId}`,
    auth: true,
    keyed: true,
    scope: 'webhooks:manage',
    purpose: 'Delete a webhook subscription',
    extension: true,
    handler: (c, s) => {
      const sub = s.webhooks.get(c.tenant, c.params.subscriptionId ?? '');
      s.webhooks.remove(sub);
      s.audit.record(
        c.tenant,
        c.client.clientId,
        'WEBHOOK_SUBSCRIPTION_DELETE',
        'webhook-subscription',
        sub.subscriptionId,
        c.ctx.requestId,
      );
      return { subscriptionId: sub.subscriptionId, status: 'DELETED' };
    },
  },
  {
    method: 'GET',
    path: `${P}/webhooks/{subscriptionId}/delivery-attempts`,
    auth: true,
    keyed: false,
    scope: 'webhooks:manage',
    since: '2026-07-01',
    purpose: 'Delivery log of a webhook subscription',
    extension: true,
    handler: (c, s) => {
      const sub = s.webhooks.get(c.tenant, c.params.subscriptionId ?? '');
      const attempts = s.webhooks.attemptsOf(sub.subscriptionId);
      return { subscriptionId: sub.subscriptionId, count: attempts.length, attempts };
    },
  },
  {
    method: 'POST',
    path: `${P}/webhook-deliveries/{deliveryId}/retrigger`,
    auth: true,
    keyed: true,
    scope: 'webhooks:manage',
    since: '2026-07-01',
    purpose: 'Trigger a logged delivery again',
    extension: true,
    handler: (c, s) => {
      const attempt = s.webhooks.retrigger(c.tenant, c.params.deliveryId ?? '');
      s.audit.record(
        c.tenant,
        c.client.clientId,
        'WEBHOOK_DELIVERY_RETRIGGER',
        'webhook-delivery',
        attempt.deliveryId,
        c.ctx.requestId,
      );
      return attempt;
    },
  },
];
