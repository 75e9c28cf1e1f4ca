// QStash-style webhook deliveries: receivers per tenant, a messages log per receiver, signed POSTs
// (`Medlar-Signature: t=<unix>,v1=<hex hmac-sha256 of "<t>.<raw body>">`), automatic retries with doubling
// backoff, and replay of any logged message (same message id and body, a new attempt).
import { createHmac } from 'node:crypto';
import { isoNow, nanoid } from './util.ts';

export const SIGNATURE_HEADER = 'Medlar-Signature';
export const MESSAGE_ID_HEADER = 'Medlar-Message-Id';
export const WEBHOOK_EVENTS = ['connection.created', 'connection.updated', 'order.created', 'order.paid'] as const;

export interface Receiver {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  signingKey: string;
  createdAt: string;
}

interface Attempt {
  attempt: number;
  trigger: 'publish' | 'retry' | 'replay';
  at: string;
  responseStatus: number | null;
  error: string | null;
}

export interface Message {
  messageId: string;
  webhookId: string;
  eventId: string;
  event: string;
  state: 'CREATED' | 'ACTIVE' | 'RETRY' | 'DELIVERED' | 'FAILED';
  body: string;
  attempts: Attempt[];
  createdAt: string;
}

export function sign(key: string, body: string, t = Math.floor(Date.now() / 1000)): string {
  return `t=${t},v1=${createHmac('sha256', key).update(`${t}.${body}`).digest('hex')}`;
}

function loopback(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
  } catch {
    return false;
  }
}

export class Webhooks {
  readonly receivers = new Map<string, Receiver>();
  private readonly messages = new Map<string, Message[]>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly aborts = new Set<AbortController>();
  private readonly retries: number;
  private readonly backoffMs: number;

  constructor(retries: number, backoffMs: number) {
    this.retries = retries;
    this.backoffMs = backoffMs;
  }

  register(tenant: string, url: string, events: string[]): Receiver {
    const r: Receiver = {
      id: `wh_${nanoid()}`,
      tenant,
      url,
      events,
      signingKey: `whsec_${nanoid(32)}`,
      createdAt: isoNow(),
    };
    this.receivers.set(r.id, r);
    this.messages.set(r.id, []);
    return r;
  }

  remove(id: string): void {
    this.receivers.delete(id);
  }

  /** The receiver of this tenant, undefined when absent or another tenant's. */
  find(tenant: string, id: string): Receiver | undefined {
    const r = this.receivers.get(id);
    return r && r.tenant === tenant ? r : undefined;
  }

  log(id: string): Message[] {
    return this.messages.get(id) ?? [];
  }

  /** Publishes an event to every receiver of the tenant subscribed to it. */
  publish(tenant: string, event: string, data: Record<string, unknown>): void {
    for (const r of this.receivers.values()) {
      if (r.tenant !== tenant || !r.events.includes(event)) continue;
      const eventId = `evt_${nanoid()}`;
      const body = JSON.stringify({ id: eventId, type: event, tenant, createdAt: isoNow(), data });
      const m: Message = {
        messageId: `msg_${nanoid()}`,
        webhookId: r.id,
        eventId,
        event,
        state: 'CREATED',
        body,
        attempts: [],
        createdAt: isoNow(),
      };
      this.log(r.id).push(m);
      void this.attempt(r, m, 'publish', 0);
    }
  }

  /** Delivers a logged message again (QStash replay). */
  replay(r: Receiver, m: Message): void {
    void this.attempt(r, m, 'replay', 0);
  }

  private async attempt(r: Receiver, m: Message, trigger: Attempt['trigger'], retry: number): Promise<void> {
    const entry: Attempt = { attempt: m.attempts.length + 1, trigger, at: isoNow(), responseStatus: null, error: null };
    m.attempts.push(entry);
    m.state = 'ACTIVE';
    if (!loopback(r.url)) {
      entry.error = 'outbound deliveries reach loopback receivers only in this deployment';
      m.state = 'FAILED';
      return;
    }
    const abort = new AbortController();
    this.aborts.add(abort);
    const timeout = setTimeout(() => abort.abort(), 5000);
    try {
      const res = await fetch(r.url, {
        method: 'POST',
        body: m.body,
        signal: abort.signal,
        headers: {
          'content-type': 'application/json',
          [SIGNATURE_HEADER]: sign(r.signingKey, m.body),
          [MESSAGE_ID_HEADER]: m.messageId,
          'Medlar-Event': m.event,
          'Medlar-Retried': String(retry),
          'user-agent': 'medlar-qstash/1.0',
        },
      });
      await res.arrayBuffer().catch(() => undefined);
      entry.responseStatus = res.status;
      if (res.ok) {
        m.state = 'DELIVERED';
        return;
      }
      entry.error = `receiver answered ${res.status}`;
    } catch (e) {
      entry.error = e instanceof Error ? e.message : String(e);
    } finally {
      clearTimeout(timeout);
      this.aborts.delete(abort);
    }
    if (trigger === 'replay' || retry >= this.retries) {
      m.state = 'FAILED';
      return;
    }
    m.state = 'RETRY';
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        void this.attempt(r, m, 'retry', retry + 1);
      },
      this.backoffMs * 2 ** retry,
    );
    this.timers.add(timer);
  }

  /** The log entry as served (the body is parsed back, unchanged in content). */
  static view(m: Message) {
    const { body, ...rest } = m;
    return { ...rest, payload: JSON.parse(body) as unknown };
  }

  close(): void {
    for (const t of this.timers) clearTimeout(t);
    for (const a of this.aborts) a.abort();
    this.timers.clear();
  }
}
