// The status stream, as the Flask app serves it from a Redis stream per tenant: every message gets the
// next number of its stream (the tenant's own, or the public one), so numbers are consecutive per stream
// and a resume by Last-Event-ID or ?cursor= replays exactly what followed. The public stream (no token)
// carries the kind of change and its time only, never a tenant's data.
import { ApiError, type Ctx } from './http.ts';
import { type Json, nowIso } from './state.ts';

export interface StreamMessage {
  id: number;
  event: string;
  data: string;
}

type Listener = (m: StreamMessage) => void;

class Channel {
  readonly log: StreamMessage[] = [];
  readonly listeners = new Set<Listener>();
  push(event: string, payload: Json): void {
    const msg = { id: this.log.length + 1, event, data: JSON.stringify(payload) };
    this.log.push(msg);
    for (const l of this.listeners) l(msg);
  }
}

export class StreamHub {
  private readonly channels = new Map<string, Channel>();
  private readonly open = new Set<Ctx>();
  channel(name: string): Channel {
    let c = this.channels.get(name);
    if (!c) {
      c = new Channel();
      this.channels.set(name, c);
    }
    return c;
  }

  /** Publishes a change to the tenant's stream and its redacted form to the public one. */
  publish(tenant: string, event: string, payload: Json): void {
    this.channel(`tenant:${tenant}`).push(event, { type: event, occurred_at: nowIso(), ...payload });
    this.channel('public').push(event, { type: event, occurred_at: nowIso() });
  }

  /** Parses the resume point: Last-Event-ID wins over ?cursor= (the browser's reconnect sends it). */
  static resumeFrom(ctx: Ctx): number {
    const header = ctx.req.headers['last-event-id'];
    const raw = (Array.isArray(header) ? header[0] : header) ?? ctx.url.searchParams.get('cursor');
    if (raw === null || raw === undefined || raw === '') return -1;
    if (!/^\d{1,15}$/.test(raw.trim())) {
      throw new ApiError('invalid_request', 'Invalid cursor', `'${raw.slice(0, 20)}' is not an integer >= 0`);
    }
    return Number(raw.trim());
  }

  /** Opens the event stream on ctx.res; `after` -1 means no resume point (live only, or all with fromStart). */
  serve(ctx: Ctx, name: string, after: number, framing: { eventField: boolean; fromStart: boolean }): void {
    const channel = this.channel(name);
    ctx.res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'x-request-id': ctx.requestId,
      ...ctx.headers,
    });
    const kind = (m: StreamMessage) => (framing.eventField ? `event: ${m.event}\n` : '');
    const write = (m: StreamMessage) => ctx.res.write(`id: ${m.id}\n${kind(m)}data: ${m.data}\n\n`);
    ctx.res.write('retry: 3000\n\n');
    const start = after >= 0 ? after : framing.fromStart ? 0 : channel.log.length;
    for (const m of channel.log.slice(start)) write(m);
    channel.listeners.add(write);
    this.open.add(ctx);
    // A comment every 15 s keeps proxies from closing an idle stream (gunicorn's gevent worker default).
    const beat = setInterval(() => ctx.res.write(': keep-alive\n\n'), 15_000);
    ctx.res.on('close', () => {
      clearInterval(beat);
      channel.listeners.delete(write);
      this.open.delete(ctx);
    });
  }

  closeAll(): void {
    for (const ctx of this.open) ctx.res.destroy();
  }
}
