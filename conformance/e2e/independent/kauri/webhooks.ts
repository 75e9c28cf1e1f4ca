// Webhook receivers and their deliveries: an outbound `http:` producer with a redelivery policy
// (maximumRedeliveries, redeliveryDelay, backOffMultiplier), a dead-letter channel, and the delivery log.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { exchangeId, isoNow } from './exchange.ts';

export const WEBHOOK_EVENTS = ['connection.created', 'connection.state-changed', 'order.created', 'order.paid'];
export const SIGNATURE_HEADER = 'Kauri-Signature';
export const DELIVERY_HEADER = 'Kauri-Delivery-Id';

export interface Receiver {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  createdAt: string;
  status: 'Started' | 'Stopped';
  secret: string;
}

export interface Attempt {
  attempt: number;
  trigger: 'initial' | 'redelivery-policy' | 'manual';
  at: string;
  statusCode: number | null;
  outcome: 'InFlight' | 'Delivered' | 'Failed';
  error?: string;
}

export interface Delivery {
  deliveryId: string;
  webhookId: string;
  eventId: string;
  event: string;
  breadcrumbId: string;
  status: 'Pending' | 'Delivered' | 'Redelivering' | 'DeadLetter';
  createdAt: string;
  attempts: Attempt[];
  body: string;
}

export interface RedeliveryPolicy {
  maximumRedeliveries: number;
  redeliveryDelayMs: number;
  backOffMultiplier: number;
}

export class WebhookRoutes {
  readonly receivers = new Map<string, Receiver>();
  readonly deliveries: Delivery[] = [];
  readonly deadLetter: Delivery[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  private readonly policy: RedeliveryPolicy;
  constructor(policy: RedeliveryPolicy) {
    this.policy = policy;
  }

  register(tenant: string, url: string, events: string[]): Receiver {
    const r: Receiver = {
      id: `wh-${randomUUID()}`,
      tenant,
      url,
      events,
      createdAt: isoNow(),
      status: 'Started',
      secret: `whsec_${randomBytes(24).toString('hex')}`,
    };
    this.receivers.set(r.id, r);
    return r;
  }

  /** Fan-out (a recipientList over the tenant's receivers subscribed to the event). */
  publish(tenant: string, event: string, data: unknown): void {
    const eventId = `evt-${randomUUID()}`;
    for (const r of this.receivers.values()) {
      if (r.tenant !== tenant || r.status !== 'Started' || !r.events.includes(event)) continue;
      const body = JSON.stringify({ id: eventId, type: event, time: isoNow(), tenant, data });
      const d: Delivery = {
        deliveryId: exchangeId(),
        webhookId: r.id,
        eventId,
        event,
        breadcrumbId: randomUUID(),
        status: 'Pending',
        createdAt: isoNow(),
        attempts: [],
        body,
      };
      this.deliveries.push(d);
      this.attempt(r, d, 'initial', 0);
    }
  }

  /** Manual redelivery of a logged delivery: the same body, a new attempt, a fresh signature time. */
  redeliver(r: Receiver, d: Delivery): void {
    d.status = 'Redelivering';
    this.attempt(r, d, 'manual', 0);
  }

  private attempt(r: Receiver, d: Delivery, trigger: Attempt['trigger'], redelivery: number): void {
    const a: Attempt = { attempt: d.attempts.length + 1, trigger, at: isoNow(), statusCode: null, outcome: 'InFlight' };
    d.attempts.push(a);
    const t = Math.floor(Date.now() / 1000);
    const sig = createHmac('sha256', r.secret).update(`${t}.${d.body}`).digest('hex');
    const done = (statusCode: number | null, error?: string) => {
      a.statusCode = statusCode;
      if (statusCode !== null && statusCode >= 200 && statusCode < 300) {
        a.outcome = 'Delivered';
        d.status = 'Delivered';
        return;
      }
      a.outcome = 'Failed';
      if (error) a.error = error;
      if (trigger !== 'manual' && redelivery < this.policy.maximumRedeliveries && !this.closed) {
        const wait = this.policy.redeliveryDelayMs * this.policy.backOffMultiplier ** redelivery;
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          this.attempt(r, d, 'redelivery-policy', redelivery + 1);
        }, wait);
        this.timers.add(timer);
      } else {
        d.status = 'DeadLetter';
        if (!this.deadLetter.includes(d)) this.deadLetter.push(d);
      }
    };
    try {
      const req = request(
        r.url,
        {
          method: 'POST',
          timeout: 5000,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(d.body),
            'user-agent': 'Apache-Camel/4.8 (kauri http producer)',
            [SIGNATURE_HEADER]: `t=${t},v1=${sig}`,
            [DELIVERY_HEADER]: d.deliveryId,
            'Kauri-Event': d.event,
            breadcrumbId: d.breadcrumbId,
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => done(res.statusCode ?? null));
        },
      );
      req.on('timeout', () => req.destroy(new Error('read timeout')));
      req.on('error', (e) => done(null, e.message));
      req.end(d.body);
    } catch (e) {
      done(null, (e as Error).message);
    }
  }

  view(d: Delivery) {
    const { body: _body, ...rest } = d;
    return { ...rest, payload: JSON.parse(d.body) as unknown };
  }

  policyView() {
    return { ...this.policy, deadLetterChannel: '/api/public/v1/webhooks/dead-letter' };
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
  }
}
