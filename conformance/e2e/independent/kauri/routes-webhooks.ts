// Routes of webhook receivers: registration (the signing key issued once), removal, the delivery log
// ("exchanges" of the receiver), manual redelivery and the dead-letter channel.
import type { CamelContext } from './camel-context.ts';
import { CamelRouteException, type Exchange } from './exchange.ts';
import { object, strings } from './validate.ts';
import { DELIVERY_HEADER, type Receiver, SIGNATURE_HEADER, WEBHOOK_EVENTS } from './webhooks.ts';

type Builder = ReturnType<typeof import('./camel-context.ts').rest>;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
const view = ({ secret: _s, ...r }: Receiver) => r;

function own(ex: Exchange, ctx: CamelContext): Receiver {
  const r = ctx.webhooks.receivers.get(ex.params.webhookId ?? '');
  if (!r || r.tenant !== ex.tenant || r.status !== 'Started')
    throw new CamelRouteException('not_found', 'No such webhook receiver for this tenant');
  return r;
}

export function webhookRoutes(r: Builder): void {
  r.post('/webhooks', 'create a webhook receiver', { key: 'required' }).to('direct:registerWebhook', (ex, ctx) => {
    const body = object(ex.body);
    if (typeof body.url !== 'string') throw new CamelRouteException('invalid_request', 'url is required');
    let url: URL;
    try {
      url = new URL(body.url);
    } catch {
      throw new CamelRouteException('invalid_request', 'url must be an absolute http(s) URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new CamelRouteException('invalid_request', 'url must be an absolute http(s) URL');
    if (!LOOPBACK.has(url.hostname.toLowerCase()))
      throw new CamelRouteException('invalid_request', 'this sandbox delivers to loopback receivers only');
    const events = strings(body, 'events', 1, 20, 2, 120);
    const unknown = events.find((e) => !WEBHOOK_EVENTS.includes(e));
    if (unknown)
      throw new CamelRouteException('invalid_request', `events: one of ${WEBHOOK_EVENTS.join(', ')}`, unknown);
    const rec = ctx.webhooks.register(ex.tenant as string, body.url, [...new Set(events)]);
    ctx.audit.append(rec.tenant, ex.id, ex.clientId as string, 'webhook.registered', rec.id);
    return {
      ...view(rec),
      signingKey: rec.secret,
      signingKeyIssued: 'ONCE',
      signatureHeader: SIGNATURE_HEADER,
      deliveryIdHeader: DELIVERY_HEADER,
      redeliveryPolicy: ctx.webhooks.policyView(),
    };
  });
  r.delete('/webhooks/{webhookId}', 'remove a webhook receiver', { key: 'required' }).to(
    'direct:removeWebhook',
    (ex, ctx) => {
      const rec = own(ex, ctx);
      rec.status = 'Stopped';
      ctx.audit.append(rec.tenant, ex.id, ex.clientId as string, 'webhook.removed', rec.id);
      return { id: rec.id, status: rec.status };
    },
  );
  r.get('/webhooks/{webhookId}/exchanges', 'delivery log of a webhook receiver').to('direct:deliveryLog', (ex, ctx) => {
    const rec = own(ex, ctx);
    const deliveries = ctx.webhooks.deliveries.filter((d) => d.webhookId === rec.id).map((d) => ctx.webhooks.view(d));
    return { webhookId: rec.id, count: deliveries.length, deliveries };
  });
  r.post('/webhooks/{webhookId}/exchanges/{exchangeId}/redeliver', 'trigger a logged delivery again', {
    key: 'required',
  }).to('direct:redeliver', (ex, ctx) => {
    const rec = own(ex, ctx);
    const d = ctx.webhooks.deliveries.find((x) => x.deliveryId === ex.params.exchangeId && x.webhookId === rec.id);
    if (!d) throw new CamelRouteException('not_found', 'No such delivery for this receiver');
    ctx.webhooks.redeliver(rec, d);
    ctx.audit.append(rec.tenant, ex.id, ex.clientId as string, 'webhook.redelivered', d.deliveryId);
    return ctx.webhooks.view(d);
  });
  r.get('/webhooks/dead-letter', 'dead-letter channel of webhook deliveries').to('direct:deadLetter', (ex, ctx) => {
    const mine = new Set([...ctx.webhooks.receivers.values()].filter((x) => x.tenant === ex.tenant).map((x) => x.id));
    const deliveries = ctx.webhooks.deadLetter.filter((d) => mine.has(d.webhookId)).map((d) => ctx.webhooks.view(d));
    return { count: deliveries.length, deliveries };
  });
}
