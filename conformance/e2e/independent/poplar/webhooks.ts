// Webhook receivers (tenants/{tenant}/webhooks), their delivery log (Cloud Tasks tasks) and re-trigger
// (tasks.run: POST …/tasks/{taskName}:run). The HMAC key is shown once, in the creation answer (and its replay).
import { randomBytes } from 'node:crypto';
import { record } from './audit.ts';
import { ApiError, autoId, type Ctx, ok, readJsonObject } from './http-util.ts';
import { once, readKey } from './idempotency.ts';
import type { State } from './state.ts';
import { dispatch, taskView } from './tasks.ts';
import { onlyFields } from './validate.ts';

export const EVENT_NAMES = ['connection.created', 'connection.activated', 'order.created', 'order.paid'];

function receiverUrl(v: unknown): string {
  if (typeof v !== 'string')
    throw new ApiError('invalid_request', 'Invalid value for field "url".', 'url: required, an http or https address');
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new ApiError('invalid_request', 'Invalid value for field "url".', 'url: an absolute http or https address');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new ApiError('invalid_request', 'Invalid value for field "url".', 'url: http or https only');
  return v;
}

function eventList(v: unknown): string[] {
  const ok =
    Array.isArray(v) &&
    v.length > 0 &&
    v.length <= 16 &&
    v.every((e) => typeof e === 'string' && EVENT_NAMES.includes(e));
  if (!ok)
    throw new ApiError(
      'invalid_request',
      'Invalid value for field "events".',
      `events: 1 to 16 of ${EVENT_NAMES.join(', ')}`,
    );
  return [...new Set(v as string[])];
}

export async function createWebhook(s: State, ctx: Ctx, tenant: string): Promise<void> {
  const key = readKey(ctx, true) as string;
  const body = await readJsonObject(ctx.req);
  if (!s.opts.ignoreUnknownFields) onlyFields(body, ['url', 'events']);
  const url = receiverUrl(body.url);
  const events = eventList(body.events);
  const r = once(s.idem, tenant, key, 'webhooks.create', { url, events }, () => {
    const id = autoId();
    const hmacKey = `whsec_${randomBytes(32).toString('base64url')}`;
    const createTime = new Date().toISOString();
    s.webhooks.set(id, { id, tenant, url, events, key: hmacKey, createTime, deleted: false });
    record(s, ctx, tenant, 'webhook.create', `webhooks/${id}`);
    return {
      id,
      name: `tenants/${tenant}/webhooks/${id}`,
      url,
      events,
      state: 'ENABLED',
      createTime,
      hmacKey,
      signatureHeader: 'X-Poplar-Signature',
    };
  });
  ok(ctx, r.data, { idempotencyKey: key, replayed: r.replayed });
}

function hookOf(s: State, tenant: string, id: string) {
  const hook = s.webhooks.get(id);
  if (!hook || hook.tenant !== tenant || hook.deleted)
    throw new ApiError('not_found', 'Webhook not found.', undefined, 'Compare identifier and tenant header.');
  return hook;
}

export async function deleteWebhook(s: State, ctx: Ctx, tenant: string, id: string): Promise<void> {
  const key = readKey(ctx, true) as string;
  const r = once(s.idem, tenant, key, `webhooks.delete/${id}`, {}, () => {
    const hook = hookOf(s, tenant, id);
    hook.deleted = true;
    record(s, ctx, tenant, 'webhook.delete', `webhooks/${id}`);
    return { id, deleted: true };
  });
  ok(ctx, r.data, { idempotencyKey: key, replayed: r.replayed });
}

/** The delivery log (added in 2026-07-01: a 2026-06-12 caller gets 404, the route did not exist then). */
export function listTasks(s: State, ctx: Ctx, tenant: string, id: string): void {
  if (ctx.version !== '2026-07-01')
    throw new ApiError('not_found', 'The delivery log is offered from version 2026-07-01.');
  hookOf(s, tenant, id);
  const tasks = [...s.tasks.values()]
    .filter((t) => t.webhookId === id)
    .reverse()
    .map(taskView);
  ok(ctx, { webhookId: id, count: tasks.length, tasks, nextPageToken: null });
}

export async function runTask(s: State, ctx: Ctx, tenant: string, id: string, taskName: string): Promise<void> {
  if (ctx.version !== '2026-07-01')
    throw new ApiError('not_found', 'The delivery log is offered from version 2026-07-01.');
  const key = readKey(ctx, true) as string;
  hookOf(s, tenant, id);
  const task = s.tasks.get(taskName);
  if (!task || task.webhookId !== id) throw new ApiError('not_found', 'Task not found.');
  const r = once(s.idem, tenant, key, `tasks.run/${taskName}`, {}, () => {
    if (s.opts.redeliverAsNewTask) {
      // A completed Cloud Task cannot run again: a copy (new task name, same Pub/Sub message) is enqueued.
      const copy = {
        ...task,
        taskName: autoId(),
        copyOf: task.taskName,
        state: 'PENDING' as const,
        attempts: [],
        createTime: new Date().toISOString(),
      };
      copy.name = task.name.replace(/[^/]+$/, copy.taskName);
      s.tasks.set(copy.taskName, copy);
      void dispatch(s, copy, 'queue');
      record(s, ctx, tenant, 'webhook.task.copy', `webhooks/${id}/tasks/${copy.taskName}`);
      return taskView(copy);
    }
    void dispatch(s, task, 'run');
    record(s, ctx, tenant, 'webhook.task.run', `webhooks/${id}/tasks/${taskName}`);
    return { ...taskView(task), scheduleTime: new Date().toISOString() };
  });
  ok(ctx, r.data, { idempotencyKey: key, replayed: r.replayed });
}
