// The status stream, webhook receivers with their delivery log, and the audit log.
import type { Ctx } from './http-util.ts';
import { invalid, sendError, sendOk } from './http-util.ts';
import type { App, Caller } from './pipeline.ts';
import { guard, keyed } from './pipeline.ts';
import type { Errors } from './validate.ts';
import { DELIVERY_ID_HEADER, EVENT_TYPES, publicDelivery, SIGNATURE_HEADER, type Webhook } from './webhooks.ts';

// As ASP.NET binds an int: leading zeros are fine ("007" is 7); at most 15 digits stay exact.
const NUMBER = /^\d{1,15}$/;

/** GET /stream: public; with a bearer token and a tenant header, the tenant's own detailed stream. */
export function stream(app: App, ctx: Ctx) {
  const header = ctx.req.headers['last-event-id'];
  const cursor = ctx.url.searchParams.get('cursor');
  const errors: Errors = {};
  if (cursor !== null && !NUMBER.test(cursor)) errors.cursor = ['The cursor must be an integer of at least 0.'];
  if (typeof header === 'string' && header !== '' && !NUMBER.test(header.trim()))
    errors['Last-Event-ID'] = ['The Last-Event-ID must be a message number.'];
  if (Object.keys(errors).length > 0) return invalid(ctx, errors);
  const after = typeof header === 'string' && header.trim() !== '' ? Number(header.trim()) : Number(cursor ?? 0);
  let channel = 'public';
  if (ctx.req.headers.authorization) {
    const caller = guard(app, ctx);
    if (!caller) return;
    channel = `tenant:${caller.tenant}`;
  }
  app.hub.subscribe(ctx.res, channel, after, {
    'request-id': ctx.requestId,
    'x-correlation-id': ctx.traceId,
    ...ctx.headers,
  });
}

function view(h: Webhook) {
  return { id: h.id, url: h.url, events: h.events, createdAt: h.createdAt, status: 'enabled' };
}

export function createWebhook(app: App, ctx: Ctx, caller: Caller) {
  return keyed(app, ctx, caller, 'webhooks.create', true, (body) => {
    const errors: Errors = {};
    const url = body.url;
    if (typeof url !== 'string' || url.length > 2048 || !/^https?:\/\/[^\s]+$/i.test(url) || !URL.canParse(url)) {
      errors.url = ['The url field must be an absolute http or https address.'];
    }
    const events = body.events;
    if (!Array.isArray(events) || events.length < 1 || events.length > EVENT_TYPES.length) {
      errors.events = [`The events field must list 1 to ${EVENT_TYPES.length} event names.`];
    } else {
      events.forEach((e, i) => {
        if (typeof e !== 'string' || !EVENT_TYPES.includes(e))
          errors[`events[${i}]`] = [`The event must be one of: ${EVENT_TYPES.join(', ')}.`];
      });
    }
    if (Object.keys(errors).length > 0) return void invalid(ctx, errors);
    const hook = app.webhooks.register(caller.tenant, url as string, [...new Set(events as string[])]);
    app.audit.record(caller.tenant, {
      actor: caller.clientId,
      action: 'webhook.created',
      resourceType: 'webhook',
      resourceId: hook.id,
    });
    return {
      status: 200,
      data: {
        ...view(hook),
        signingKey: hook.signingKey,
        signature: {
          header: SIGNATURE_HEADER,
          format: 't=<unix-seconds>,v1=<hex HMAC-SHA256 over "<t>.<body>">',
          toleranceSeconds: 300,
        },
        delivery: {
          format: 'CloudEvents 1.0, structured mode',
          contentType: 'application/cloudevents+json',
          idHeader: DELIVERY_ID_HEADER,
        },
      },
    };
  });
}

export function listWebhooks(app: App, ctx: Ctx, caller: Caller) {
  const hooks = app.webhooks.list(caller.tenant).map(view);
  sendOk(ctx, { count: hooks.length, webhooks: hooks });
}

export function getWebhook(app: App, ctx: Ctx, caller: Caller, id: string) {
  const hook = app.webhooks.get(caller.tenant, id);
  if (!hook) return sendError(ctx, 404, 'not_found', { detail: 'No webhook of this tenant has this id.' });
  sendOk(ctx, view(hook));
}

export function deleteWebhook(app: App, ctx: Ctx, caller: Caller, id: string) {
  return keyed(
    app,
    ctx,
    caller,
    `webhooks.delete ${id}`,
    true,
    () => {
      if (!app.webhooks.remove(caller.tenant, id))
        return void sendError(ctx, 404, 'not_found', { detail: 'No webhook of this tenant has this id.' });
      app.audit.record(caller.tenant, {
        actor: caller.clientId,
        action: 'webhook.deleted',
        resourceType: 'webhook',
        resourceId: id,
      });
      return { status: 200, data: { id, deleted: true } };
    },
    true,
  );
}

function intParam(ctx: Ctx, name: string, min: number, max: number, fallback: number, errors: Errors): number {
  const raw = ctx.url.searchParams.get(name);
  if (raw === null) return fallback;
  const n = NUMBER.test(raw) ? Number(raw) : Number.NaN;
  if (!(n >= min && n <= max)) errors[name] = [`The ${name} parameter must be an integer from ${min} to ${max}.`];
  return n;
}

/** GET /webhooks/{id}/deliveries?$top=&$skip=: newest first, OData-style page with @odata.count. */
export function deliveryLog(app: App, ctx: Ctx, caller: Caller, id: string) {
  const errors: Errors = {};
  const top = intParam(ctx, '$top', 1, 200, app.deliveryPageSize, errors);
  const skip = intParam(ctx, '$skip', 0, 1_000_000, 0, errors);
  if (Object.keys(errors).length > 0) return invalid(ctx, errors);
  const log = app.webhooks.log(caller.tenant, id);
  if (!log) return sendError(ctx, 404, 'not_found', { detail: 'No webhook of this tenant has this id.' });
  const value = log.slice(skip, skip + top).map(publicDelivery);
  const next =
    skip + top < log.length
      ? `${ctx.origin}/api/public/v1/webhooks/${id}/deliveries?$top=${top}&$skip=${skip + top}`
      : undefined;
  sendOk(ctx, { webhookId: id, '@odata.count': log.length, value, ...(next ? { '@odata.nextLink': next } : {}) });
}

export function redeliver(app: App, ctx: Ctx, caller: Caller, id: string, deliveryId: string) {
  return keyed(
    app,
    ctx,
    caller,
    `deliveries.retry ${id} ${deliveryId}`,
    true,
    () => {
      const d = app.webhooks.redeliver(caller.tenant, id, deliveryId);
      if (!d) return void sendError(ctx, 404, 'not_found', { detail: 'No delivery of this webhook has this id.' });
      app.audit.record(caller.tenant, {
        actor: caller.clientId,
        action: 'webhook.delivery.retried',
        resourceType: 'webhookDelivery',
        resourceId: d.id,
      });
      return { status: 200, data: publicDelivery(d) };
    },
    true,
  );
}

/** GET /audit-log?limit=&$skiptoken=: newest first, @odata.nextLink to the next page, the chain proof. */
export function auditLog(app: App, ctx: Ctx, caller: Caller) {
  const errors: Errors = {};
  const limit = intParam(ctx, 'limit', 1, app.auditMaxPage, Math.min(20, app.auditMaxPage), errors);
  const token = ctx.url.searchParams.get('$skiptoken');
  const before = token === null ? undefined : Number(Buffer.from(token, 'base64url').toString('utf8'));
  if (before !== undefined && !(Number.isInteger(before) && before >= 0))
    errors.$skiptoken = ['The $skiptoken is not valid.'];
  if (Object.keys(errors).length > 0) return invalid(ctx, errors);
  const page = app.audit.page(caller.tenant, limit, before);
  const next =
    page.nextBefore === undefined
      ? undefined
      : `${ctx.origin}/api/public/v1/audit-log?limit=${limit}&$skiptoken=${Buffer.from(String(page.nextBefore)).toString('base64url')}`;
  sendOk(ctx, {
    tenant: caller.tenant,
    order: app.audit.order,
    '@odata.count': page.total,
    value: page.entries,
    ...(next ? { '@odata.nextLink': next } : {}),
    proof: page.proof,
  });
}
