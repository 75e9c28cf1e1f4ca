// The status stream (Phoenix would push it through a PubSub topic; here a feed per topic). Two topics:
// the public one (state changes without tenant data: no tenant, no scope label) and one per tenant,
// read with a bearer token and x-service-tenant. Messages carry only `id:` and `data:` (no `event:`).
import type { Ctx } from './http-kit.ts';
import { flyRequestId, halt, isoUsec, sortedJson } from './http-kit.ts';

interface Message {
  id: number;
  data: string;
}

type Listener = (m: Message) => void;

class Feed {
  seq = 0;
  retained: Message[] = [];
  listeners = new Set<Listener>();
  retention: number;

  constructor(retention: number) {
    this.retention = retention;
  }

  push(payload: Record<string, unknown>): void {
    this.seq += 1;
    const m = { id: this.seq, data: sortedJson(payload) };
    this.retained.push(m);
    if (this.retained.length > this.retention) this.retained.shift();
    for (const l of this.listeners) l(m);
  }
}

export class Feeds {
  retention: number;
  public: Feed;
  tenants = new Map<string, Feed>();
  open = new Set<Ctx>();

  constructor(retention: number) {
    this.retention = retention;
    this.public = new Feed(retention);
  }

  tenantFeed(tenant: string): Feed {
    let f = this.tenants.get(tenant);
    if (f === undefined) {
      f = new Feed(this.retention);
      this.tenants.set(tenant, f);
    }
    return f;
  }

  /** A connection changed: one message on the public topic, one on its tenant's. */
  publish(type: string, connection: Record<string, unknown>, tenant: string): void {
    const at = isoUsec(Date.now());
    this.public.push({
      type,
      connection: {
        id: connection.id,
        connectorId: connection.connectorId,
        environment: connection.environment,
        state: connection.state,
      },
      at,
    });
    this.tenantFeed(tenant).push({ type, tenant, connection, at });
  }

  closeAll(): void {
    for (const ctx of this.open) ctx.res.destroy();
    this.open.clear();
  }
}

/** The resume point: cursor (query) or Last-Event-ID (header), the later of the two when both are sent. */
export function resumePoint(ctx: Ctx): number | undefined {
  const raw = ctx.url.searchParams.getAll('cursor');
  let cursor: number | undefined;
  if (raw.length > 1) halt('invalid_request', 'cursor may be given once', 'cursor: given more than once');
  if (raw.length === 1) {
    if (!/^\d+$/.test(raw[0] ?? '')) {
      halt('invalid_request', 'cursor must be an integer of at least 0', 'cursor: expected an integer >= 0');
    }
    cursor = Number(raw[0]);
  }
  const header = ctx.req.headers['last-event-id'];
  // Last-Event-ID is a plain string in the interface: one that is not a number of ours is no resume point.
  if (typeof header === 'string' && /^\d+$/.test(header.trim())) {
    const n = Number(header.trim());
    cursor = cursor === undefined ? n : Math.max(cursor, n);
  }
  return cursor;
}

/** Serves a feed: the backlog after the resume point (or a reset first when it cannot be served), then live. */
export function serveFeed(ctx: Ctx, feeds: Feeds, feed: Feed, cursor: number | undefined): void {
  ctx.res.writeHead(200, {
    ...ctx.headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-request-id': ctx.requestId,
    via: '1.1 fly.io',
    'fly-request-id': flyRequestId(),
  });
  const write = (m: Message) => ctx.res.write(`id: ${m.id}\ndata: ${m.data}\n\n`);
  // The reconnection delay an EventSource should use (ms), then a comment so proxies flush the headers.
  ctx.res.write('retry: 3000\n\n: ok\n\n');
  if (cursor !== undefined) {
    const oldest = feed.retained[0]?.id ?? feed.seq + 1;
    // Older than retention, or ahead of the stream (e.g. numbers from before a restart): tell the client.
    if (cursor < oldest - 1 || cursor > feed.seq) {
      ctx.res.write(`data: ${sortedJson({ type: 'reset', oldest, latest: feed.seq })}\n\n`);
      for (const m of feed.retained) write(m);
    } else {
      for (const m of feed.retained) if (m.id > cursor) write(m);
    }
  }
  feed.listeners.add(write);
  feeds.open.add(ctx);
  // Fly's proxy closes idle connections after 60 s: a comment every 15 s keeps the stream open.
  const beat = setInterval(() => ctx.res.write(': ping\n\n'), 15_000);
  beat.unref();
  ctx.res.on('close', () => {
    clearInterval(beat);
    feed.listeners.delete(write);
    feeds.open.delete(ctx);
  });
}
