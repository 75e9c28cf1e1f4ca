// totara: the event log as the team kept it in Redis Streams (XADD ids like `1700000000000-0`, kept internally),
// one stream per tenant and one public stream; each stream numbers its messages 1, 2, 3, ... for the SSE `id:`.
// GET /stream serves the tenant's stream to an authenticated caller and the public one (no tenant data) otherwise.
import type { ServerResponse } from 'node:http';
import { type Ctx, HttpError, type Settings } from './types.ts';
import { header, now } from './util.ts';

export interface StreamEntry {
  seq: number;
  /** The Redis stream id, never shown. */
  xid: string;
  event: string;
  payload: Record<string, unknown>;
}

type Listener = (entry: StreamEntry) => void;

export class EventLog {
  private readonly streams = new Map<string, StreamEntry[]>();
  private readonly listeners = new Map<string, Set<Listener>>();
  private lastMs = 0;
  private lastN = 0;

  private xid(): string {
    const ms = Date.now();
    this.lastN = ms === this.lastMs ? this.lastN + 1 : 0;
    this.lastMs = Math.max(ms, this.lastMs);
    return `${this.lastMs}-${this.lastN}`;
  }

  private xadd(key: string, event: string, body: Record<string, unknown>): void {
    const stream = this.streams.get(key) ?? [];
    this.streams.set(key, stream);
    const seq = stream.length + 1;
    const entry: StreamEntry = { seq, xid: this.xid(), event, payload: { sequence: seq, type: event, ...body } };
    stream.push(entry);
    for (const l of this.listeners.get(key) ?? []) l(entry);
  }

  /** A state change of a tenant's connection: in full on its stream, without tenant data on the public one. */
  publish(tenant: string, event: string, connection: Record<string, unknown>): void {
    const occurredAt = now();
    this.xadd(`tenant:${tenant}`, event, { occurredAt, connection });
    this.xadd('public', event, { occurredAt, state: connection.state, environment: connection.environment });
  }

  since(key: string, after: number): StreamEntry[] {
    return (this.streams.get(key) ?? []).slice(after);
  }

  last(key: string): number {
    return this.streams.get(key)?.length ?? 0;
  }

  subscribe(key: string, listener: Listener): () => void {
    const set = this.listeners.get(key) ?? new Set<Listener>();
    this.listeners.set(key, set);
    set.add(listener);
    return () => set.delete(listener);
  }
}

/** `cursor` or `Last-Event-ID` (the header wins), each a whole number of at least 0. */
function resumeFrom(ctx: Ctx): number | undefined {
  const lastEventId = header(ctx.req, 'last-event-id');
  const cursors = ctx.query.getAll('cursor');
  if (cursors.length > 1)
    throw new HttpError(400, 'invalid_request', 'querystring/cursor must be integer', 'FST_ERR_VALIDATION');
  const given = lastEventId !== undefined && lastEventId.trim() !== '' ? lastEventId.trim() : cursors[0];
  const name = lastEventId !== undefined && lastEventId.trim() !== '' ? 'headers/last-event-id' : 'querystring/cursor';
  if (given === undefined) return undefined;
  if (!/^\d{1,15}$/.test(given))
    throw new HttpError(400, 'invalid_request', `${name} must be integer >= 0`, 'FST_ERR_VALIDATION');
  return Number(given);
}

function write(res: ServerResponse, entry: StreamEntry): void {
  res.write(`id: ${entry.seq}\nevent: ${entry.event}\ndata: ${JSON.stringify(entry.payload)}\n\n`);
}

/** GET /stream: backlog after the resume point, then live messages, a keep-alive comment every 15 s. */
export function serveStream(ctx: Ctx, log: EventLog, settings: Settings, extraHeaders: Record<string, string>): void {
  const key = ctx.principal ? `tenant:${ctx.principal.tenant}` : 'public';
  const resume = resumeFrom(ctx);
  const after = resume ?? (settings.streamFrom === 'start' ? 0 : log.last(key));
  ctx.res.writeHead(200, {
    ...extraHeaders,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  if (ctx.method === 'HEAD') {
    ctx.res.end();
    return;
  }
  ctx.res.write('retry: 3000\n\n');
  let sent = after;
  for (const entry of log.since(key, after)) {
    write(ctx.res, entry);
    sent = entry.seq;
  }
  const unsubscribe = log.subscribe(key, (entry) => {
    if (entry.seq <= sent) return;
    write(ctx.res, entry);
    sent = entry.seq;
  });
  const keepAlive = setInterval(() => ctx.res.write(': keep-alive\n\n'), 15_000);
  keepAlive.unref();
  const stop = () => {
    clearInterval(keepAlive);
    unsubscribe();
  };
  ctx.res.on('close', stop);
  ctx.req.on('close', stop);
}
