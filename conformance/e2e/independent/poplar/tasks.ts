// Webhook deliveries as Cloud Tasks HTTP tasks: one task per (event, receiver), a Pub/Sub push envelope as body
// (base64 message.data, attributes in clear), retried on non-2xx with the queue's retry config
// (minBackoff * 2^min(n, maxDoublings), capped at maxBackoff, maxAttempts in all). Every attempt is signed at the
// moment it is sent: X-Poplar-Signature: t=<unix>,v1=<hex hmac-sha256(key, t + "." + raw body)>.
import { createHmac } from 'node:crypto';
import { autoId } from './http-util.ts';
import { later, type State, type Task } from './state.ts';

export const SIGNATURE_HEADER = 'X-Poplar-Signature';
export const TASK_HEADER = 'X-CloudTasks-TaskName';
const QUEUE = 'projects/poplar-sandbox/locations/europe-west3/queues/webhook-deliveries';

export function signature(key: string, body: string, t = Math.floor(Date.now() / 1000)): string {
  return `t=${t},v1=${createHmac('sha256', key).update(`${t}.${body}`).digest('hex')}`;
}

/** Enqueues one task per subscribed receiver of the tenant. */
export function enqueue(s: State, tenant: string, eventType: string, connection: Record<string, unknown>): void {
  for (const hook of s.webhooks.values()) {
    if (hook.deleted || hook.tenant !== tenant || !hook.events.includes(eventType)) continue;
    const eventId = autoId();
    const publishTime = new Date().toISOString();
    const event = { id: eventId, type: eventType, time: publishTime, data: { connection } };
    const attributes: Record<string, string> = { eventType };
    if (!s.opts.minimalAttributes)
      Object.assign(attributes, { eventId, connectionId: String(connection.id), webhookId: hook.id });
    const body = JSON.stringify({
      message: {
        data: Buffer.from(JSON.stringify(event)).toString('base64'),
        messageId: eventId,
        publishTime,
        attributes,
      },
      subscription: `projects/poplar-sandbox/subscriptions/webhook-${hook.id}`,
    });
    const taskName = autoId();
    const task: Task = {
      taskName,
      name: `${QUEUE}/tasks/${taskName}`,
      webhookId: hook.id,
      tenant,
      eventType,
      eventId,
      connectionId: String(connection.id),
      body,
      createTime: publishTime,
      state: 'PENDING',
      attempts: [],
    };
    s.tasks.set(taskName, task);
    void dispatch(s, task, 'queue');
  }
}

function backoff(s: State, retries: number): number {
  const o = s.opts;
  return Math.min(o.maxBackoffMs, o.minBackoffMs * 2 ** Math.min(retries, o.maxDoublings));
}

/** One HTTP attempt; a failed queue attempt schedules the next one. `run` is a manual re-trigger (tasks.run). */
export async function dispatch(s: State, task: Task, trigger: 'queue' | 'retry' | 'run'): Promise<void> {
  const hook = s.webhooks.get(task.webhookId);
  if (!hook) return;
  const attempt = {
    attemptNumber: task.attempts.length + 1,
    dispatchTime: new Date().toISOString(),
    responseStatus: null as number | null,
    trigger,
    responseTime: undefined as string | undefined,
    error: undefined as string | undefined,
  };
  task.attempts.push(attempt);
  try {
    const res = await fetch(hook.url, {
      method: 'POST',
      body: task.body,
      signal: AbortSignal.timeout(5000),
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Google-Cloud-Tasks',
        [SIGNATURE_HEADER]: signature(hook.key, task.body),
        [TASK_HEADER]: task.taskName,
        'X-CloudTasks-QueueName': 'webhook-deliveries',
        'X-CloudTasks-TaskRetryCount': String(task.attempts.length - 1),
        'X-CloudTasks-TaskExecutionCount': String(task.attempts.filter((a) => a.responseStatus !== null).length),
      },
    });
    await res.arrayBuffer().catch(() => undefined);
    attempt.responseStatus = res.status;
  } catch (e) {
    // Only the failure class is kept: the receiver's address is the partner's own, no internals of poplar.
    attempt.error = e instanceof Error && e.name === 'TimeoutError' ? 'DEADLINE_EXCEEDED' : 'UNAVAILABLE';
  }
  attempt.responseTime = new Date().toISOString();
  const success = attempt.responseStatus !== null && attempt.responseStatus >= 200 && attempt.responseStatus < 300;
  if (success) {
    task.state = 'SUCCEEDED';
    return;
  }
  if (trigger === 'run') return;
  const queued = task.attempts.filter((a) => a.trigger !== 'run').length;
  if (queued >= s.opts.maxAttempts) {
    task.state = 'FAILED';
    return;
  }
  task.retryTimer = later(s, backoff(s, queued - 1), () => void dispatch(s, task, 'retry'));
}

/** The delivery log's view of a task (the body is not repeated: it may carry the partner's data). */
export function taskView(t: Task): Record<string, unknown> {
  const done = t.attempts.filter((a) => a.responseStatus !== null);
  return {
    taskName: t.taskName,
    name: t.name,
    webhookId: t.webhookId,
    eventType: t.eventType,
    eventId: t.eventId,
    connectionId: t.connectionId,
    state: t.state,
    ...(t.copyOf ? { copyOf: t.copyOf } : {}),
    createTime: t.createTime,
    dispatchCount: t.attempts.length,
    responseCount: done.length,
    attempts: t.attempts.map((a) => ({ ...a })),
  };
}
