// WebhooksController: registration (key shown once), listing, removal, the delivery-attempt log
// (page/pageSize paging, newest first) and resending one attempt's event.
import { randomBytes } from 'node:crypto';
import { appendAudit } from './audit.ts';
import type { App, Webhook } from './state.ts';
import { badRequest, type Ctx, notFound, readBody } from './util.ts';
import { type Field, isIn, isStr, isStrArray, validateDto } from './validate.ts';
import { deliveryView, enqueue, SIGNATURE_HEADER, WEBHOOK_EVENTS } from './webhooks.ts';

const isUrl: Field['rule'] = (n, v) => {
  const m = isStr(8, 2048)(n, v);
  if (m) return m;
  try {
    const u = new URL(v as string);
    return u.protocol === 'https:' || u.protocol === 'http:' ? null : `${n} must be an URL address`;
  } catch {
    return `${n} must be an URL address`;
  }
};

const CreateWebhookDto: Record<string, Field> = {
  url: { rule: isUrl },
  events: { rule: isStrArray(1, 20, isIn(WEBHOOK_EVENTS)) },
  description: { rule: isStr(0, 200), optional: true },
};

/** Integer ids (Prisma autoincrement) unless DOGWOOD_STRING_IDS asks for strings. */
const idOf = (app: App, id: number): number | string => (app.state.opts.stringIds ? String(id) : id);
const view = (app: App, h: Webhook) => ({
  id: idOf(app, h.id),
  url: h.url,
  events: h.events,
  status: h.status,
  createdAt: h.createdAt,
});

/** Nest's ParseIntPipe, then the tenant scope: another tenant's receiver is simply not found. */
function findHook(app: App, ctx: Ctx, raw: string | undefined): Webhook {
  if (!raw || !/^\d{1,9}$/.test(raw)) throw badRequest('Validation failed (numeric string is expected): webhookId');
  const h = app.state.webhooks.find((x) => x.id === Number(raw) && x.tenant === ctx.tenant && x.status !== 'deleted');
  if (!h) throw notFound(`webhook ${raw} does not exist`);
  return h;
}

export async function createWebhook(app: App, ctx: Ctx) {
  const key = app.idem.requireKey(ctx);
  const body = await readBody(ctx.req);
  const dto = validateDto(body, CreateWebhookDto, app.state.opts.forbidUnknown);
  const data = await app.idem.run(ctx, key, body, () => {
    const h: Webhook = {
      id: ++app.state.seq.webhook,
      tenant: ctx.tenant ?? '',
      url: dto.url as string,
      events: [...new Set(dto.events as string[])],
      secret: `whsk_${randomBytes(24).toString('hex')}`,
      status: 'active',
      createdAt: new Date().toISOString(),
    };
    app.state.webhooks.push(h);
    appendAudit(app.state, ctx, 'webhook.create', 'webhook', String(h.id));
    return { ...view(app, h), signatureHeader: SIGNATURE_HEADER, signingKey: h.secret };
  });
  // The signing key is issued exactly once: a replay repeats the answer without it.
  if (ctx.replayed) {
    const { signingKey: _hidden, ...rest } = data;
    return rest;
  }
  return data;
}

export function listWebhooks(app: App, ctx: Ctx) {
  const hooks = app.state.webhooks
    .filter((h) => h.tenant === ctx.tenant && h.status !== 'deleted')
    .map((h) => view(app, h));
  return { count: hooks.length, webhooks: hooks, events: WEBHOOK_EVENTS };
}

export const getWebhook = (app: App, ctx: Ctx, p: Record<string, string>) => view(app, findHook(app, ctx, p.webhookId));

export async function deleteWebhook(app: App, ctx: Ctx, p: Record<string, string>) {
  const key = app.idem.requireKey(ctx);
  const body = await readBody(ctx.req);
  return app.idem.run(ctx, key, body, () => {
    const h = findHook(app, ctx, p.webhookId);
    h.status = 'deleted';
    appendAudit(app.state, ctx, 'webhook.delete', 'webhook', String(h.id));
    return { id: idOf(app, h.id), deleted: true };
  });
}

function intParam(ctx: Ctx, name: string, def: number, max: number): number {
  const raw = ctx.query.get(name);
  if (raw === null) return def;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > max)
    throw badRequest(`${name} must be an integer from 1 to ${max}`);
  return Number(raw);
}

export function listDeliveries(app: App, ctx: Ctx, p: Record<string, string>) {
  const h = findHook(app, ctx, p.webhookId);
  const page = intParam(ctx, 'page', 1, 100_000);
  const pageSize = intParam(ctx, 'pageSize', 20, 100);
  const all = app.state.deliveries.filter((d) => d.webhookId === h.id).reverse();
  const items = all
    .slice((page - 1) * pageSize, page * pageSize)
    .map((d) => deliveryView(d, app.state.opts.stringIds === true));
  return { webhookId: idOf(app, h.id), page, pageSize, total: all.length, items };
}

export async function resendDelivery(app: App, ctx: Ctx, p: Record<string, string>) {
  const key = app.idem.requireKey(ctx);
  const body = await readBody(ctx.req);
  const h = findHook(app, ctx, p.webhookId);
  const raw = p.attemptId ?? '';
  if (!/^\d{1,9}$/.test(raw)) throw badRequest('Validation failed (numeric string is expected): attemptId');
  const original = app.state.deliveries.find((d) => d.id === Number(raw) && d.webhookId === h.id);
  if (!original) throw notFound(`delivery attempt ${raw} does not exist`);
  return app.idem.run(ctx, key, body, () => {
    const d = enqueue(app.state, h, original.eventId, original.eventType, original.payload, original.id);
    appendAudit(app.state, ctx, 'webhook.delivery.resend', 'delivery', String(d.id));
    return deliveryView(d, app.state.opts.stringIds === true);
  });
}
