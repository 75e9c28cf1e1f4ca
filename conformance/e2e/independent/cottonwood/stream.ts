// The status stream: one numbered log per tenant (and one public log of service status), so every
// reader sees consecutive numbers; resumption replays what follows `cursor` or Last-Event-ID.
import type { ServerResponse } from 'node:http';
import { type Ctx, HttpError, header, type Rec } from './http.ts';

interface Message {
  seq: number;
  event: string;
  data: Rec;
}

const PUBLIC = '__public__';

export class StatusStream {
  private logs = new Map<string, Message[]>();
  private readers = new Map<string, Set<ServerResponse>>();
  private heartbeats = new Set<NodeJS.Timeout>();

  private relayMs: number;
  private relays = new Set<NodeJS.Timeout>();

  private maxMs: number;

  private unnamed: boolean;

  constructor(relayMs = 0, maxMs = 0, unnamed = false) {
    this.unnamed = unnamed;
    this.relayMs = relayMs;
    this.maxMs = maxMs;
    // The public stream tells about the service only, never about a tenant's connections.
    this.publish(PUBLIC, 'service.status', { status: 'operational', environment: 'sandbox' });
  }

  /** With a relay delay the change waits in the outbox; the number is given when it is relayed, in order. */
  publish(tenant: string, event: string, data: Rec) {
    const stamped = { ...data, occurredAt: new Date().toISOString() };
    if (this.relayMs <= 0) return this.append(tenant, event, stamped);
    const timer = setTimeout(() => {
      this.relays.delete(timer);
      this.append(tenant, event, stamped);
    }, this.relayMs);
    this.relays.add(timer);
  }

  private append(tenant: string, event: string, data: Rec) {
    const log = this.logs.get(tenant) ?? [];
    this.logs.set(tenant, log);
    const msg = { seq: log.length + 1, event, data };
    log.push(msg);
    for (const res of this.readers.get(tenant) ?? []) res.write(frame(msg, this.unnamed));
  }

  /** `tenant` undefined opens the public stream; the start point is the later of cursor and Last-Event-ID. */
  open(ctx: Ctx, tenant: string | undefined) {
    const from = startAfter(ctx);
    const key = tenant ?? PUBLIC;
    ctx.res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-request-id': ctx.requestId,
      ...ctx.headers,
    });
    ctx.res.write('retry: 2000\n\n');
    for (const msg of this.logs.get(key) ?? []) if (msg.seq > from) ctx.res.write(frame(msg, this.unnamed));
    const set = this.readers.get(key) ?? new Set();
    this.readers.set(key, set);
    set.add(ctx.res);
    // A comment line now and then keeps proxies from closing an idle stream (Elysia's generator is idle too).
    const beat = setInterval(() => ctx.res.write(': keep-alive\n\n'), 15_000);
    this.heartbeats.add(beat);
    // The client reconnects with Last-Event-ID, as the interface asks after any interruption.
    if (this.maxMs > 0) {
      const end = setTimeout(() => ctx.res.end(), this.maxMs);
      this.heartbeats.add(end);
      ctx.res.on('close', () => clearTimeout(end));
    }
    ctx.res.on('close', () => {
      clearInterval(beat);
      this.heartbeats.delete(beat);
      set.delete(ctx.res);
    });
  }

  close() {
    for (const timer of this.relays) clearTimeout(timer);
    for (const beat of this.heartbeats) clearInterval(beat);
    for (const set of this.readers.values()) for (const res of set) res.end();
  }
}

function frame(m: Message, unnamed: boolean): string {
  const event = unnamed ? '' : `event: ${m.event}\n`;
  return `id: ${m.seq}\n${event}data: ${JSON.stringify({ seq: m.seq, type: m.event, ...m.data })}\n\n`;
}

/** Both forms are "the last number read": an integer of at least 0, anything else is a 400. */
function startAfter(ctx: Ctx): number {
  let from = 0;
  const values = [ctx.query.get('cursor'), header(ctx, 'last-event-id')];
  for (const [i, raw] of values.entries()) {
    if (raw === null || raw === undefined) continue;
    if (!/^\d+$/.test(raw.trim())) {
      const where = i === 0 ? '/cursor' : 'Last-Event-ID';
      throw new HttpError(
        400,
        'invalid_request',
        'Invalid stream position',
        `${where}: Expected integer to be greater or equal to 0`,
      );
    }
    from = Math.max(from, Number(raw.trim()));
  }
  return from;
}
