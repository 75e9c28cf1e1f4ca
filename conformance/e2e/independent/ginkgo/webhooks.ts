// Webhook receivers, signed deliveries (header X-Ginkgo-Signature: t=<unix>,v1=<hex HMAC-SHA256 over
// "<t>.<raw body>">), a delivery log per receiver and a resend of one logged delivery. Up to 3 attempts per
// delivery (after 1 s and 4 s) on a non-2xx answer or a network error; a resend is one more attempt.
import { createHmac, randomBytes } from 'node:crypto';
import { type Call, HttpError, ok, parseJsonObject } from './http-kit.ts';
import { validateBody } from './validation.ts';

export const WEBHOOK_EVENTS = [
  'connection.created',
  'connection.ready',
  'connection.paused',
  'order.created',
  'order.paid',
] as const;
const RETRY_DELAYS = [1000, 4000];

interface Webhook {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  secret: string;
  createdAt: string;
}

interface LogEntry {
  logId: string;
  eventId: string;
  event: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  lastResponseStatus?: number;
  createdAt: string;
  body: string;
}

function view(w: Webhook) {
  return { id: w.id, url: w.url, events: w.events, createdAt: w.createdAt };
}

function publicEntry(e: LogEntry) {
  const { body: _body, ...rest } = e;
  return rest;
}

export class WebhookHub {
  nextId = 7;
  nextLog = 1;
  nextEvent = 1000;
  hooks = new Map<string, Webhook>();
  logs = new Map<string, LogEntry[]>();
  timers = new Set<NodeJS.Timeout>();
  /** A resend logs a new delivery (new logId, same eventId) instead of one more attempt of the old one. */
  resendAsNew = false;
  audit: (tenant: string, action: string, actor: string, id: string, requestId: string) => void;

  constructor(audit: WebhookHub['audit']) {
    this.audit = audit;
  }

  register(call: Call, text: string) {
    const body = validateBody(parseJsonObject(text), {
      url: { type: 'string', required: true, min: 1, max: 2048, url: true },
      events: { type: 'array', required: true, min: 1, max: 20, items: { type: 'string', enum: WEBHOOK_EVENTS } },
    });
    const w: Webhook = {
      id: String(this.nextId++),
      tenant: call.tenant ?? '',
      url: String(body.url),
      events: [...new Set(body.events as string[])],
      secret: `whsec_${randomBytes(24).toString('base64url')}`,
      createdAt: new Date().toISOString(),
    };
    this.hooks.set(w.id, w);
    this.logs.set(w.id, []);
    this.audit(w.tenant, 'webhook.create', call.clientId ?? 'unknown', w.id, call.requestId);
    // The signing key is in this answer only (and in a replay of it under the same key).
    return { ...view(w), signingKey: w.secret };
  }

  own(call: Call, id: string): Webhook {
    const w = this.hooks.get(id);
    if (!w || w.tenant !== call.tenant)
      throw new HttpError('not_found', 'Webhook not found', `path.webhook_id: no webhook '${id}' for this tenant`);
    return w;
  }

  list(call: Call): void {
    const webhooks = [...this.hooks.values()].filter((w) => w.tenant === call.tenant).map(view);
    ok(call, { count: webhooks.length, webhooks });
  }

  read(call: Call, id: string): void {
    ok(call, view(this.own(call, id)));
  }

  remove(call: Call, id: string) {
    const w = this.own(call, id);
    this.hooks.delete(w.id);
    this.audit(w.tenant, 'webhook.delete', call.clientId ?? 'unknown', w.id, call.requestId);
    return { id: w.id, deleted: true };
  }

  deliveryLog(call: Call, id: string): void {
    const w = this.own(call, id);
    const entries = (this.logs.get(w.id) ?? []).map(publicEntry).reverse();
    ok(call, { webhookId: w.id, count: entries.length, entries });
  }

  resend(call: Call, id: string, logId: string) {
    const w = this.own(call, id);
    const entry = (this.logs.get(w.id) ?? []).find((e) => e.logId === logId);
    if (!entry)
      throw new HttpError('not_found', 'Delivery not found', `path.log_id: no delivery '${logId}' for webhook '${id}'`);
    this.audit(w.tenant, 'webhook.resend', call.clientId ?? 'unknown', `${w.id}/${logId}`, call.requestId);
    if (this.resendAsNew) {
      const copy: LogEntry = {
        ...entry,
        logId: String(this.nextLog++),
        status: 'pending',
        attempts: 0,
        createdAt: new Date().toISOString(),
      };
      delete copy.lastResponseStatus;
      this.logs.get(w.id)?.push(copy);
      void this.attempt(w, copy, false);
      return publicEntry({ ...copy });
    }
    entry.status = 'pending';
    void this.attempt(w, entry, false);
    return publicEntry({ ...entry });
  }

  dispatch(tenant: string, event: string, data: Record<string, unknown>): void {
    for (const w of this.hooks.values()) {
      if (w.tenant !== tenant || !w.events.includes(event)) continue;
      const eventId = String(this.nextEvent++);
      const body = JSON.stringify({
        eventId,
        event,
        createdAt: new Date().toISOString(),
        tenant,
        webhookId: w.id,
        data,
      });
      const entry: LogEntry = {
        logId: String(this.nextLog++),
        eventId,
        event,
        status: 'pending',
        attempts: 0,
        createdAt: new Date().toISOString(),
        body,
      };
      this.logs.get(w.id)?.push(entry);
      void this.attempt(w, entry, true);
    }
  }

  private async attempt(w: Webhook, entry: LogEntry, retry: boolean): Promise<void> {
    entry.attempts += 1;
    const t = Math.floor(Date.now() / 1000);
    const v1 = createHmac('sha256', w.secret).update(`${t}.${entry.body}`).digest('hex');
    let status = 0;
    try {
      const res = await fetch(w.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'ginkgo-webhooks/1.0',
          'x-ginkgo-signature': `t=${t},v1=${v1}`,
          'x-ginkgo-event': entry.event,
          'x-ginkgo-log-id': entry.logId,
        },
        body: entry.body,
        signal: AbortSignal.timeout(5000),
      });
      status = res.status;
      await res.arrayBuffer().catch(() => undefined);
    } catch {
      status = 0;
    }
    if (status !== 0) entry.lastResponseStatus = status;
    if (status >= 200 && status < 300) entry.status = 'delivered';
    else {
      const delay = RETRY_DELAYS[entry.attempts - 1];
      if (retry && delay !== undefined && this.hooks.has(w.id)) {
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          void this.attempt(w, entry, true);
        }, delay);
        timer.unref();
        this.timers.add(timer);
      } else entry.status = 'failed';
    }
  }

  close(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
