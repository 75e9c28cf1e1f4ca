// The status stream: per tenant, a numbered list of messages (an ngx.shared dict keyed by sequence in the
// original), and a public stream numbered on its own that names no tenant, no venue and no connector. Each
// stream's numbers run 1, 2, 3... with no gap, so resumption by cursor or Last-Event-ID replays exactly
// what followed the number read.
import type { ServerResponse } from 'node:http';
import { ApiError, type Ctx, cjson, type Rec } from './http.ts';

interface Message {
  id: number;
  event: string;
  data: Rec;
}

interface Subscriber {
  channel: string;
  res: ServerResponse;
}

const PUBLIC = '*public*';

export class EventBus {
  private readonly logs = new Map<string, Message[]>();
  private readonly subs = new Set<Subscriber>();
  private readonly unnamed: boolean;
  constructor(unnamed = false) {
    this.unnamed = unnamed;
  }

  private append(channel: string, event: string, data: Rec): void {
    let log = this.logs.get(channel);
    if (!log) {
      log = [];
      this.logs.set(channel, log);
    }
    const msg = { id: log.length + 1, event, data };
    log.push(msg);
    for (const s of this.subs) if (s.channel === channel) write(s.res, msg, this.unnamed);
  }

  /** A state change: in full on the tenant's stream, reduced to id and state on the public one. */
  publish(tenant: string, event: string, data: Rec, publicData: Rec): void {
    this.append(tenant, event, { ...data, at: new Date().toISOString() });
    this.append(PUBLIC, event, { ...publicData, at: new Date().toISOString() });
  }

  /** GET /stream: `tenant` undefined reads the public stream. */
  open(ctx: Ctx, tenant: string | undefined): void {
    const cursor = readCursor(ctx);
    const channel = tenant ?? PUBLIC;
    const res = ctx.res;
    res.writeHead(200, {
      ...ctx.headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
      'x-request-id': ctx.requestId,
      'service-version': ctx.version,
    });
    res.write('retry: 3000\n\n');
    for (const msg of this.logs.get(channel) ?? []) if (msg.id > cursor) write(res, msg, this.unnamed);
    const sub = { channel, res };
    this.subs.add(sub);
    // nginx's proxy_read_timeout habit: a comment every 15 s keeps idle streams open.
    const beat = setInterval(() => res.write(': keepalive\n\n'), 15_000);
    res.on('close', () => {
      clearInterval(beat);
      this.subs.delete(sub);
    });
  }

  closeAll(): void {
    for (const s of this.subs) s.res.destroy();
    this.subs.clear();
  }
}

function write(res: ServerResponse, m: Message, unnamed: boolean): void {
  const event = unnamed ? '' : `event: ${m.event}\n`;
  res.write(`id: ${m.id}\n${event}data: ${cjson({ seq: m.id, type: m.event, ...m.data })}\n\n`);
}

/** `cursor` (query) wins over Last-Event-ID; both are the last number read, an integer of at least 0. */
function readCursor(ctx: Ctx): number {
  const q = ctx.url.searchParams.get('cursor');
  const h = ctx.req.headers['last-event-id'];
  const raw = q ?? (typeof h === 'string' ? h.trim() : undefined);
  if (raw === undefined || raw === null) return 0;
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
    throw new ApiError(400, 'invalid_request', 'cursor must be an integer of at least 0');
  }
  return Number(raw);
}
