// Webhook receivers, their delivery log and resend, and the audit log.
import { ApiError, ok } from './http-util.ts';
import type { Handler } from './keyed.ts';
import { keyed, ownReceiver } from './keyed.ts';
import { Errors, obj, str } from './validate.ts';
import type { Webhooks } from './webhooks.ts';
import { EVENT_NAMES } from './webhooks.ts';

export const webhookRoutes: [string, RegExp, Handler][] = [
  [
    'GET',
    /^\/webhooks$/,
    (c) => {
      const list = [...c.st.webhooks.receivers.values()]
        .filter((r) => r.tenant === c.tenant && r.status !== 'deleted')
        .map((r) => c.st.webhooks.view(r));
      ok(c.ctx, { count: list.length, webhooks: list });
    },
  ],
  [
    'POST',
    /^\/webhooks$/,
    (c) =>
      keyed(
        c,
        true,
        true,
        (b) => {
          const errors = new Errors();
          const o = obj(b, errors);
          const url = str(o, 'url', 8, 2048, errors);
          if (url !== undefined && !/^https?:\/\/[^\s/]+/.test(url))
            errors.add('body.url', 'must be an absolute http or https URL');
          const events = o.events;
          if (!Array.isArray(events) || events.length < 1 || events.length > 20)
            errors.add('body.events', 'must be an array of 1 to 20 event names');
          else
            events.forEach((e, i) => {
              if (typeof e !== 'string' || !EVENT_NAMES.includes(e))
                errors.add(`body.events[${i}]`, `must be one of ${EVENT_NAMES.join(', ')}`);
            });
          errors.throwIfAny();
          return { url: url ?? '', events: [...new Set(events as string[])] };
        },
        (input) => {
          const { url, events } = input as { url: string; events: string[] };
          const r = c.st.webhooks.create(c.tenant, url, events);
          c.st.audit.append(c.tenant, c.access.clientId, 'webhook.create', 'webhook', r.id, c.ctx.requestId, {
            url,
            events,
          });
          return { ...c.st.webhooks.view(r), secret: r.secret, signatureHeader: 'Fern-Signature' };
        },
      ),
  ],
  ['GET', /^\/webhooks\/([^/]+)$/, (c) => ok(c.ctx, c.st.webhooks.view(ownReceiver(c, c.params[0])))],
  [
    'DELETE',
    /^\/webhooks\/([^/]+)$/,
    (c) =>
      keyed(
        c,
        true,
        false,
        () => ownReceiver(c, c.params[0]),
        (r) => {
          const rec = r as ReturnType<typeof ownReceiver>;
          rec.status = 'deleted';
          c.st.audit.append(c.tenant, c.access.clientId, 'webhook.delete', 'webhook', rec.id, c.ctx.requestId, {});
          return { id: rec.id, deleted: true };
        },
      ),
  ],
  [
    'GET',
    /^\/webhooks\/([^/]+)\/delivery-log$/,
    (c) => {
      const r = ownReceiver(c, c.params[0]);
      const list = c.st.webhooks.log(r.id);
      ok(c.ctx, { webhookId: r.id, count: list.length, deliveries: list });
    },
  ],
  [
    'POST',
    /^\/webhook-deliveries\/([^/]+)\/resend$/,
    (c) =>
      keyed(
        c,
        true,
        false,
        () => {
          const d = c.st.webhooks.deliveries.get(c.params[0] ?? '');
          const r = d ? c.st.webhooks.receivers.get(d.webhookId) : undefined;
          if (!d || !r || r.tenant !== c.tenant || r.status === 'deleted')
            throw new ApiError('not_found', 'Delivery not found', undefined, 'Compare identifier and tenant header');
          return d;
        },
        (d) => {
          const fresh = c.st.webhooks.resend(d as Parameters<Webhooks['resend']>[0]);
          if (!fresh) throw new ApiError('not_found', 'Delivery not found');
          c.st.audit.append(
            c.tenant,
            c.access.clientId,
            'webhook.delivery.resend',
            'delivery',
            fresh.id,
            c.ctx.requestId,
            { resendOf: fresh.resendOf },
          );
          return c.st.webhooks.deliveryView(fresh);
        },
      ),
  ],
  [
    'GET',
    /^\/audit-log$/,
    (c) => {
      const errors = new Errors();
      const num = (name: string, min: number, max: number, dflt: number) => {
        const v = c.ctx.query.get(name);
        if (v === null) return dflt;
        if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max)
          errors.add(`query.${name}`, `must be an integer from ${min} to ${max}`);
        return Number(v);
      };
      const limit = num('limit', 1, 100, 50);
      const newest = c.st.auditNewestFirst;
      const cursor = num(newest ? 'before' : 'after', 0, Number.MAX_SAFE_INTEGER, 0);
      errors.throwIfAny();
      const page = c.st.audit.page(c.tenant, limit, cursor, newest);
      if (page.next) c.ctx.headers.Link = `<${page.next}>; rel="next"`;
      ok(c.ctx, newest ? { ...page, next: undefined } : page);
    },
  ],
];
