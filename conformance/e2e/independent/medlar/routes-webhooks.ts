// Route handlers of webhooks: app/api/public/v1/webhooks/route.ts, webhooks/[webhookId]/route.ts,
// webhooks/[webhookId]/messages/route.ts and webhooks/[webhookId]/messages/[messageId]/replay/route.ts.
import type { Ctx, RouteModule } from './types.ts';
import { invalid, notFound, ok } from './util.ts';
import { MESSAGE_ID_HEADER, type Receiver, SIGNATURE_HEADER, WEBHOOK_EVENTS, Webhooks } from './webhooks.ts';

function receiver(ctx: Ctx): Receiver {
  const r = ctx.app.webhooks.find(ctx.tenant as string, ctx.params.webhookId ?? '');
  if (!r) throw notFound('The webhook receiver does not exist.');
  return r;
}

const view = (r: Receiver) => ({
  id: r.id,
  url: r.url,
  events: r.events,
  createdAt: r.createdAt,
  signatureHeader: SIGNATURE_HEADER,
  messageIdHeader: MESSAGE_ID_HEADER,
});

export const webhooksRoute: RouteModule = {
  keyRequired: ['POST'],
  GET(ctx) {
    const receivers = [...ctx.app.webhooks.receivers.values()].filter((r) => r.tenant === ctx.tenant).map(view);
    return ok({ count: receivers.length, webhooks: receivers });
  },
  POST(ctx) {
    const body = ctx.body as Record<string, unknown>;
    const url = body.url;
    if (typeof url !== 'string' || url.length < 8 || url.length > 2048)
      throw invalid('Field url must be an absolute http(s) URL.');
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw invalid('Field url must be an absolute http(s) URL.');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw invalid('Field url must use http or https.');
    const events = body.events;
    if (!Array.isArray(events) || events.length < 1 || events.length > 20) {
      throw invalid('Field events must be an array of 1 to 20 event names.');
    }
    for (const e of events) {
      if (typeof e !== 'string' || !(WEBHOOK_EVENTS as readonly string[]).includes(e)) {
        throw invalid(`events: one of ${WEBHOOK_EVENTS.join(', ')}.`, 'Unknown event name.');
      }
    }
    const r = ctx.app.webhooks.register(ctx.tenant as string, url, [...new Set(events as string[])]);
    ctx.app.audit.record(
      ctx.tenant as string,
      'webhook.created',
      ctx.clientId as string,
      { type: 'webhook', id: r.id },
      { url: r.url, events: r.events },
      ctx.requestId,
    );
    return {
      ...ok({ ...view(r), signingKey: r.signingKey, signingKeyNotice: 'Shown once: store it now.' }),
      replay: { ...view(r), signingKey: null, signingKeyNotice: 'Issued once, with the first answer to this key.' },
    };
  },
};

export const webhookRoute: RouteModule = {
  keyRequired: ['DELETE'],
  GET(ctx) {
    return ok(view(receiver(ctx)));
  },
  DELETE(ctx) {
    const r = receiver(ctx);
    ctx.app.webhooks.remove(r.id);
    ctx.app.audit.record(
      ctx.tenant as string,
      'webhook.deleted',
      ctx.clientId as string,
      { type: 'webhook', id: r.id },
      {},
      ctx.requestId,
    );
    return ok({ id: r.id, deleted: true });
  },
};

export const messagesRoute: RouteModule = {
  GET(ctx) {
    const r = receiver(ctx);
    const messages = ctx.app.webhooks.log(r.id).map(Webhooks.view).reverse();
    return ok({ webhookId: r.id, count: messages.length, messages });
  },
};

export const replayRoute: RouteModule = {
  keyRequired: ['POST'],
  bodyOptional: true,
  POST(ctx) {
    const r = receiver(ctx);
    const m = ctx.app.webhooks.log(r.id).find((x) => x.messageId === ctx.params.messageId);
    if (!m) throw notFound('The message does not exist in the delivery log of this receiver.');
    ctx.app.webhooks.replay(r, m);
    ctx.app.audit.record(
      ctx.tenant as string,
      'webhook.message_replayed',
      ctx.clientId as string,
      { type: 'webhook_message', id: m.messageId },
      { webhookId: r.id },
      ctx.requestId,
    );
    return ok({
      webhookId: r.id,
      messageId: m.messageId,
      eventId: m.eventId,
      state: 'ACTIVE',
      replayedAt: new Date().toISOString(),
    });
  },
};
