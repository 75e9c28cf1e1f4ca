// Webhook receivers (WEBHOOK_SUBSCRIPTIONS with a NUMBER id from a sequence, written by JSON-B as a JSON
// number). The signing key is generated once, returned in the creation answer only, and kept for signing.
import { randomBytes } from 'node:crypto';
import { bad, notFound, offsetDateTime, type Rec } from './http.ts';
import { Sequence } from './state.ts';

export const EVENT_NAMES = [
  'connection.created',
  'connection.activated',
  'connection.suspended',
  'order.created',
  'order.paid',
];

export interface Subscription {
  id: number;
  tenant: string;
  url: string;
  events: string[];
  signingKey: string;
  createdAt: string;
  status: 'ENABLED' | 'DISABLED';
}

export class WebhookRegistry {
  readonly seq = new Sequence(5000);
  readonly subs: Subscription[] = [];

  /** Validates and stores a receiver; the answer is the only place the signing key ever appears. */
  register(tenant: string, body: Rec): Rec {
    const url = body.url;
    if (typeof url !== 'string' || url.length > 2048) throw bad('url: must be a string');
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw bad('url: must be an absolute http(s) URL');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw bad('url: must be http or https');
    // The sandbox delivers to loopback receivers only (a tunnel forwards to one).
    if (parsed.hostname !== '127.0.0.1' && parsed.hostname !== 'localhost') {
      throw bad('url: the sandbox delivers to loopback receivers only');
    }
    const events = body.events;
    if (!Array.isArray(events) || events.length < 1 || events.length > 20) {
      throw bad('events: size must be between 1 and 20');
    }
    const unknown = events.find((e) => typeof e !== 'string' || !EVENT_NAMES.includes(e));
    if (unknown !== undefined) throw bad(`events: one of ${EVENT_NAMES.join(', ')}`, String(unknown));
    const sub: Subscription = {
      id: this.seq.next(),
      tenant,
      url,
      events: [...new Set(events as string[])],
      signingKey: `whsk_${randomBytes(24).toString('hex')}`,
      createdAt: offsetDateTime(),
      status: 'ENABLED',
    };
    this.subs.push(sub);
    return { ...view(sub), signingKey: sub.signingKey };
  }

  find(tenant: string, rawId: string | undefined): Subscription {
    const sub = this.subs.find((s) => String(s.id) === rawId && s.tenant === tenant && s.status === 'ENABLED');
    if (!sub) throw notFound('Webhook subscription not found');
    return sub;
  }

  list(tenant: string): Rec {
    const items = this.subs.filter((s) => s.tenant === tenant && s.status === 'ENABLED').map(view);
    return { count: items.length, items };
  }

  remove(tenant: string, rawId: string | undefined): Rec {
    const sub = this.find(tenant, rawId);
    sub.status = 'DISABLED';
    return view(sub);
  }

  /** Enabled receivers of a tenant subscribed to the event. */
  targets(tenant: string, event: string): Subscription[] {
    return this.subs.filter((s) => s.tenant === tenant && s.status === 'ENABLED' && s.events.includes(event));
  }
}

/** A receiver as shown after its creation: never its signing key. */
export function view(s: Subscription): Rec {
  return { id: s.id, url: s.url, events: s.events, status: s.status, createdAt: s.createdAt };
}
