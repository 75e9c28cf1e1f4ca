// Webhook receivers (tenant-scoped, events from a fixed list, a 400 naming them otherwise) and their
// delivery log. The signing key is a `whsk_` token shown only in the creation answer (json_serializable's
// toJson() of the receiver leaves it out; the creation handler adds it once).
import { randomBytes } from 'node:crypto';
import { ApiError, badRequest, type Ctx } from './http.ts';
import { dartNow, type Rec, uuid } from './state.ts';

export const EVENT_NAMES = ['connection.created', 'connection.activated', 'order.created', 'order.paid'];

export interface Webhook {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  signingKey: string;
  createdAt: string;
  description: string | null;
}
export interface Attempt {
  id: string;
  webhookId: string;
  eventId: string;
  event: string;
  attempt: number;
  status: 'pending' | 'succeeded' | 'failed';
  responseStatus: number | null;
  error: string | null;
  requestedAt: string;
  completedAt: string | null;
  redeliveryOf: string | null;
}
export interface Hooks {
  webhooks: Webhook[];
  attempts: Attempt[];
  bodies: Map<string, string>;
  timers: Set<NodeJS.Timeout>;
}
export const newHooks = (): Hooks => ({ webhooks: [], attempts: [], bodies: new Map(), timers: new Set() });

export const webhookView = ({ signingKey: _k, tenant: _t, ...rest }: Webhook): Rec => rest;

export function validateWebhook(body: Rec): { url: string; events: string[]; description: string | null } {
  const url = body.url;
  if (typeof url !== 'string' || !/^https?:\/\/[^\s]+$/.test(url) || url.length > 2048) {
    throw badRequest('Field url must be an http(s) URL');
  }
  const events = body.events;
  if (!Array.isArray(events) || events.length === 0 || !events.every((e) => EVENT_NAMES.includes(e))) {
    throw badRequest(
      'Field events must be a non-empty list of event names',
      `events: one of ${EVENT_NAMES.join(', ')}`,
    );
  }
  const description = typeof body.description === 'string' ? body.description : null;
  return { url, events: [...new Set(events as string[])], description };
}

export function createWebhook(h: Hooks, ctx: Ctx, fields: ReturnType<typeof validateWebhook>): Rec {
  const hook: Webhook = {
    id: uuid(),
    tenant: ctx.tenant ?? '',
    ...fields,
    signingKey: `whsk_${randomBytes(24).toString('hex')}`,
    createdAt: dartNow(),
  };
  h.webhooks.push(hook);
  return { ...webhookView(hook), signingKey: hook.signingKey };
}

export function findWebhook(h: Hooks, ctx: Ctx, id: string): Webhook {
  const hook = h.webhooks.find((w) => w.id === id && w.tenant === ctx.tenant);
  if (!hook) throw new ApiError(404, 'not_found', `Webhook ${id} not found`);
  return hook;
}

export function removeWebhook(h: Hooks, ctx: Ctx, id: string): Rec {
  const hook = findWebhook(h, ctx, id);
  h.webhooks = h.webhooks.filter((w) => w !== hook);
  return { id, deleted: true };
}

export function listAttempts(h: Hooks, ctx: Ctx, webhookId: string): Rec {
  const hook = findWebhook(h, ctx, webhookId);
  const deliveryAttempts = h.attempts.filter((a) => a.webhookId === hook.id).reverse();
  return { webhookId: hook.id, count: deliveryAttempts.length, deliveryAttempts };
}
