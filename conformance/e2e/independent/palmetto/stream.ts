// GET /stream as a Jersey SseEventSink would serve it: `id:` is the message's number, `event:` its kind.
// With a bearer token and tenant header the caller reads its tenant's stream (numbered per tenant); without,
// the public stream (its own numbering) carries only the kind and time of a change, never a tenant's data.
import type { ServerResponse } from 'node:http';
import { ApiError, type Ctx, type Rec } from './http.ts';
import type { Store, StreamEvent } from './state.ts';

const PUBLIC = '\u0000public';

export class Stream {
  private readonly sinks = new Map<string, Set<ServerResponse>>();
  private readonly store: Store;
  constructor(store: Store) {
    this.store = store;
  }

  publish(tenant: string, event: string, payload: Rec): void {
    this.append(tenant, event, payload);
    this.append(PUBLIC, event, { type: event, at: new Date().toISOString() });
  }

  private append(channel: string, event: string, payload: Rec): void {
    const log = this.store.list(this.store.streams, channel);
    const msg: StreamEvent = {
      seq: log.length + 1,
      event,
      data: JSON.stringify({ sequence: log.length + 1, ...payload }),
    };
    log.push(msg);
    for (const res of this.sinks.get(channel) ?? []) res.write(frame(msg));
  }

  /** Opens a sink after `cursor` / Last-Event-ID (the header wins, as EventSource sends it on reconnect). */
  open(ctx: Ctx, authenticated: boolean): void {
    const header = ctx.req.headers['last-event-id'];
    const query = ctx.url.searchParams.get('cursor');
    const rawCursor = typeof header === 'string' && header !== '' ? header : query;
    let cursor: number | undefined;
    if (rawCursor !== null && rawCursor !== undefined) {
      if (!/^\d+$/.test(rawCursor)) {
        throw new ApiError(400, 'invalid_request', 'cursor must be greater than or equal to 0', 'query.cursor');
      }
      cursor = Number(rawCursor);
    }
    const channel = authenticated ? ctx.tenant : PUBLIC;
    const res = ctx.res;
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-request-id': ctx.requestId,
      ...ctx.headers,
    });
    res.write(': palmetto status stream\nretry: 3000\n\n');
    if (cursor !== undefined) {
      for (const m of this.store.list(this.store.streams, channel)) if (m.seq > cursor) res.write(frame(m));
    }
    let set = this.sinks.get(channel);
    if (!set) {
      set = new Set();
      this.sinks.set(channel, set);
    }
    set.add(res);
    const ping = setInterval(() => res.write(': keepalive\n\n'), 15_000);
    ctx.req.on('close', () => {
      clearInterval(ping);
      set.delete(res);
    });
  }

  closeAll(): void {
    for (const set of this.sinks.values()) for (const res of set) res.end();
  }
}

const frame = (m: StreamEvent): string => `id: ${m.seq}\nevent: ${m.event}\ndata: ${m.data}\n\n`;
