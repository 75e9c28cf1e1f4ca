// totara: webhook receivers and their BullMQ-style delivery queue: one job per receiver and event, `attempts` with
// exponential backoff, every attempt kept in the job's log; a job can be retried on request (same job id, same body,
// a fresh signature). Deliveries are real HTTP POSTs to the registered loopback URL.
import { createHmac, randomBytes } from 'node:crypto';
import { request } from 'node:http';
import type { Settings } from './types.ts';
import { cuid, now } from './util.ts';

export const SIGNATURE_HEADER = 'x-totara-signature';
export const DELIVERY_HEADER = 'x-totara-delivery';
export const WEBHOOK_EVENTS = ['connection.created', 'connection.updated', 'order.created', 'order.paid'] as const;

export interface Webhook {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  secret: string;
  status: 'active' | 'deleted';
  createdAt: string;
  updatedAt: string;
}

export interface AttemptLog {
  attempt: number;
  trigger: 'queue' | 'backoff' | 'retry';
  startedAt: string;
  finishedAt: string | null;
  statusCode: number | null;
  error: string | null;
}

export interface Job {
  id: string;
  webhookId: string;
  tenant: string;
  name: string;
  eventId: string;
  body: string;
  status: 'waiting' | 'active' | 'delayed' | 'completed' | 'failed';
  attemptsMade: number;
  timestamp: string;
  processedOn: string | null;
  finishedOn: string | null;
  failedReason: string | null;
  logs: AttemptLog[];
}

export class Webhooks {
  readonly hooks = new Map<string, Webhook>();
  readonly jobs = new Map<string, Job>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  private readonly settings: Settings;

  constructor(settings: Settings) {
    this.settings = settings;
  }

  register(tenant: string, url: string, events: string[]): Webhook {
    const at = now();
    const hook: Webhook = {
      id: cuid(),
      tenant,
      url,
      events: [...events],
      secret: `whsec_${randomBytes(24).toString('hex')}`,
      status: 'active',
      createdAt: at,
      updatedAt: at,
    };
    this.hooks.set(hook.id, hook);
    return hook;
  }

  view(hook: Webhook): Record<string, unknown> {
    const { tenant, secret, ...rest } = hook;
    return { ...rest, signatureHeader: SIGNATURE_HEADER, deliveryIdHeader: DELIVERY_HEADER, tenantId: tenant };
  }

  jobView(job: Job): Record<string, unknown> {
    const { body, tenant, ...rest } = job;
    return {
      ...rest,
      opts: {
        attempts: this.settings.webhookAttempts,
        backoff: { type: 'exponential', delay: this.settings.webhookBackoffMs },
      },
    };
  }

  /** Adds one job per active receiver of the tenant subscribed to the event; all carry the same event id. */
  emit(tenant: string, event: string, data: Record<string, unknown>): void {
    const eventId = `evt_${cuid()}`;
    const body = JSON.stringify({ id: eventId, type: event, createdAt: now(), tenantId: tenant, data });
    for (const hook of this.hooks.values()) {
      if (hook.tenant !== tenant || hook.status !== 'active' || !hook.events.includes(event)) continue;
      const job: Job = {
        id: cuid(),
        webhookId: hook.id,
        tenant,
        name: event,
        eventId,
        body,
        status: 'waiting',
        attemptsMade: 0,
        timestamp: now(),
        processedOn: null,
        finishedOn: null,
        failedReason: null,
        logs: [],
      };
      this.jobs.set(job.id, job);
      setImmediate(() => this.process(job, 'queue', 1));
    }
  }

  /** `job.retry()`: a new run of the same job, logged at once. */
  retry(job: Job): void {
    job.status = 'waiting';
    job.failedReason = null;
    job.finishedOn = null;
    this.process(job, 'retry', 1);
  }

  private process(job: Job, trigger: AttemptLog['trigger'], run: number): void {
    const hook = this.hooks.get(job.webhookId);
    if (this.closed || !hook) return;
    job.status = 'active';
    job.attemptsMade += 1;
    job.processedOn = now();
    const log: AttemptLog = {
      attempt: job.attemptsMade,
      trigger,
      startedAt: now(),
      finishedAt: null,
      statusCode: null,
      error: null,
    };
    job.logs.push(log);
    const t = Math.floor(Date.now() / 1000);
    const v1 = createHmac('sha256', hook.secret).update(`${t}.${job.body}`).digest('hex');
    let finished = false;
    const done = (statusCode: number | null, error: string | null) => {
      if (finished) return;
      finished = true;
      log.finishedAt = now();
      log.statusCode = statusCode;
      log.error = error;
      if (statusCode !== null && statusCode >= 200 && statusCode < 300) {
        job.status = 'completed';
        job.finishedOn = now();
        return;
      }
      job.failedReason = error ?? `receiver answered ${statusCode}`;
      if (run < this.settings.webhookAttempts && !this.closed) {
        job.status = 'delayed';
        const timer = setTimeout(
          () => {
            this.timers.delete(timer);
            this.process(job, 'backoff', run + 1);
          },
          this.settings.webhookBackoffMs * 2 ** (run - 1),
        );
        this.timers.add(timer);
      } else {
        job.status = 'failed';
        job.finishedOn = now();
      }
    };
    try {
      const req = request(
        new URL(hook.url),
        {
          method: 'POST',
          timeout: 5000,
          headers: {
            'content-type': 'application/json; charset=utf-8',
            'content-length': Buffer.byteLength(job.body),
            'user-agent': 'totara-webhooks/1.0 (bullmq)',
            [SIGNATURE_HEADER]: `t=${t},v1=${v1}`,
            [DELIVERY_HEADER]: job.id,
            'x-totara-event': job.name,
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => done(res.statusCode ?? 0, null));
          res.on('error', (e) => done(null, e.message));
        },
      );
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', (e) => done(null, e.message));
      req.end(job.body);
    } catch (e) {
      done(null, (e as Error).message);
    }
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
