// totara: the webhook routes: registration (the signing key in the first answer only), listing, removal, the
// delivery log of a receiver (its BullMQ jobs) and the retry of one job.
import type { AuditLog } from './audit.ts';
import { validate, webhookBody } from './schema.ts';
import { type Ctx, HttpError, principalOf, type Result } from './types.ts';
import { isLoopbackHost } from './util.ts';
import { WEBHOOK_EVENTS, type Webhook, type Webhooks } from './webhooks.ts';

export class WebhookRoutes {
  private readonly webhooks: Webhooks;
  private readonly audit: AuditLog;

  constructor(webhooks: Webhooks, audit: AuditLog) {
    this.webhooks = webhooks;
    this.audit = audit;
  }

  private own(ctx: Ctx): Webhook {
    const hook = this.webhooks.hooks.get(ctx.params.webhookId ?? '');
    if (!hook || hook.tenant !== principalOf(ctx).tenant)
      throw new HttpError(404, 'not_found', `Webhook ${ctx.params.webhookId} not found`, 'FST_ERR_NOT_FOUND');
    return hook;
  }

  /** POST /webhooks: a replay under the same key answers the same receiver without its signing key. */
  create(ctx: Ctx): Result {
    const err = validate(webhookBody(WEBHOOK_EVENTS), ctx.body);
    if (err) throw new HttpError(400, 'invalid_request', err, 'FST_ERR_VALIDATION');
    const body = ctx.body as { url: string; events: string[] };
    const url = new URL(body.url);
    if (url.protocol !== 'http:' || !isLoopbackHost(url.hostname))
      throw new HttpError(
        400,
        'invalid_request',
        'body/url must be an http address on the loopback interface (sandbox)',
        'FST_ERR_VALIDATION',
      );
    const hook = this.webhooks.register(principalOf(ctx).tenant, url.href, body.events);
    this.audit.append(hook.tenant, ctx, 'webhook.create', 'Webhook', hook.id, { url: hook.url, events: hook.events });
    const view = this.webhooks.view(hook);
    return {
      data: { ...view, secret: hook.secret, secretIssued: 'now' },
      replayData: { ...view, secret: null, secretIssued: 'already_issued' },
    };
  }

  list(ctx: Ctx): Result {
    const webhooks = [...this.webhooks.hooks.values()]
      .filter((h) => h.tenant === principalOf(ctx).tenant && h.status === 'active')
      .map((h) => this.webhooks.view(h));
    return { data: { count: webhooks.length, webhooks } };
  }

  get(ctx: Ctx): Result {
    return { data: this.webhooks.view(this.own(ctx)) };
  }

  remove(ctx: Ctx): Result {
    const hook = this.own(ctx);
    if (hook.status === 'deleted')
      throw new HttpError(404, 'not_found', `Webhook ${hook.id} not found`, 'FST_ERR_NOT_FOUND');
    hook.status = 'deleted';
    hook.updatedAt = new Date().toISOString();
    this.audit.append(hook.tenant, ctx, 'webhook.delete', 'Webhook', hook.id);
    return { data: { id: hook.id, deleted: true } };
  }

  /** GET /webhooks/{webhookId}/jobs: the receiver's deliveries, newest first. */
  jobs(ctx: Ctx): Result {
    const hook = this.own(ctx);
    const jobs = [...this.webhooks.jobs.values()]
      .filter((j) => j.webhookId === hook.id)
      .reverse()
      .map((j) => this.webhooks.jobView(j));
    return { data: { webhookId: hook.id, count: jobs.length, jobs } };
  }

  /** POST /webhooks/{webhookId}/jobs/{jobId}/retry: delivers the same body again, signed anew. */
  retry(ctx: Ctx): Result {
    const hook = this.own(ctx);
    const job = this.webhooks.jobs.get(ctx.params.jobId ?? '');
    if (!job || job.webhookId !== hook.id)
      throw new HttpError(404, 'not_found', `Job ${ctx.params.jobId} not found`, 'FST_ERR_NOT_FOUND');
    if (hook.status !== 'active')
      throw new HttpError(404, 'not_found', `Webhook ${hook.id} not found`, 'FST_ERR_NOT_FOUND');
    this.webhooks.retry(job);
    this.audit.append(hook.tenant, ctx, 'webhook.job.retry', 'WebhookJob', job.id, { webhookId: hook.id });
    return { data: this.webhooks.jobView(job) };
  }
}
