// Webhook receivers and their delivery log (Minion's job list per receiver). The signing key is shown in
// the creation answer only (field `secret`, the Perl habit); listings never show it again. The log and its
// retry live under the receiver: GET /webhooks/{id}/jobs and POST /webhooks/{id}/jobs/{jobId}/retry.
import { randomBytes } from 'node:crypto';
import { record } from './audit.ts';
import { ApiError, type Ctx, jsonBody } from './http.ts';
import { withKey } from './idempotency.ts';
import { retryJob } from './minion.ts';
import { bodies } from './openapi-schemas.ts';
import { nextId, PREFIX, type Rec, type Store } from './state.ts';
import { validBody } from './validate.ts';

const publicHook = (w: Rec): Rec => ({ id: w.id, url: w.url, events: w.events, active: w.active, created: w.created });

function ownHook(store: Store, ctx: Ctx): Rec {
  const id = Number(ctx.params.webhookId);
  const hook = store.webhooks.find((w) => w.id === id && w.tenant === ctx.tenant && w.active);
  // Another tenant's receiver is "not found", never "forbidden": its existence is not this tenant's business.
  if (!hook) throw new ApiError('not_found', 'No such webhook receiver.');
  return hook;
}

export function createWebhook(store: Store, ctx: Ctx): void {
  withKey(store, ctx, () => {
    const body = validBody(bodies.WebhookCreate ?? {}, jsonBody(ctx));
    const hook: Rec = {
      id: nextId(store, 'webhooks'),
      tenant: ctx.tenant,
      url: body.url,
      events: [...new Set(body.events as string[])],
      active: true,
      created: new Date().toISOString(),
      secret: `whsec_${randomBytes(24).toString('hex')}`,
    };
    store.webhooks.push(hook);
    record(store, ctx, 'webhook.create', `${PREFIX}/webhooks/${hook.id}`);
    return { ...publicHook(hook), secret: hook.secret };
  });
}

export function listWebhooks(store: Store, ctx: Ctx): Rec {
  const hooks = store.webhooks.filter((w) => w.tenant === ctx.tenant && w.active).map(publicHook);
  return { count: hooks.length, webhooks: hooks };
}

export function deleteWebhook(store: Store, ctx: Ctx): void {
  withKey(store, ctx, () => {
    const hook = ownHook(store, ctx);
    hook.active = false;
    record(store, ctx, 'webhook.delete', `${PREFIX}/webhooks/${hook.id}`);
    return { id: hook.id, deleted: true };
  });
}

const jobView = (j: Rec): Rec => ({
  id: j.id,
  webhook_id: j.webhook_id,
  event_id: j.event_id,
  event: j.event,
  state: j.state,
  retries: j.retries,
  delayed: j.delayed,
  attempts: j.attempts,
  payload: JSON.parse(j.body),
});

export function listJobs(store: Store, ctx: Ctx): Rec {
  const hook = ownHook(store, ctx);
  const jobs = store.jobs.filter((j) => j.webhook_id === hook.id).map(jobView);
  return { webhook_id: hook.id, count: jobs.length, jobs };
}

export function redeliver(store: Store, ctx: Ctx): void {
  withKey(store, ctx, () => {
    const hook = ownHook(store, ctx);
    const job = store.jobs.find((j) => j.id === Number(ctx.params.jobId) && j.webhook_id === hook.id);
    if (!job) throw new ApiError('not_found', 'No such delivery job.');
    retryJob(store, job);
    record(store, ctx, 'webhook.redeliver', `${PREFIX}/webhooks/${hook.id}/jobs/${job.id}`);
    return { id: job.id, state: 'inactive', retries: job.retries, queued: true };
  });
}
