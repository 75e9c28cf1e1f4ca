// The status stream (ActionController::Live style): one public sequence of connection state changes, kept
// as a backlog so a client resumes after the last number it read. A reconnecting EventSource repeats its
// original URL (with its old ?cursor) and adds Last-Event-ID, so Last-Event-ID wins over cursor.
import type { ServerResponse } from 'node:http';
import { ApiError, type Ctx, header, jsonText, nowIso } from './util.ts';

export interface StreamMessage {
  seq: number;
  kind: string;
  data: Record<string, unknown>;
}

export interface StreamState {
  iso: (ms?: number) => string;
  messages: StreamMessage[];
  clients: Set<ServerResponse>;
  heartbeat?: NodeJS.Timeout;
}

const BACKLOG = 20_000;

export function newStream(iso: (ms?: number) => string = nowIso): StreamState {
  const s: StreamState = { iso, messages: [], clients: new Set() };
  // A comment line every 15 s keeps proxies from closing an idle stream.
  s.heartbeat = setInterval(() => {
    for (const c of s.clients) c.write(': keep-alive\n\n');
  }, 15_000);
  s.heartbeat.unref();
  return s;
}

function frame(m: StreamMessage): string {
  return `id: ${m.seq}\nevent: ${m.kind}\ndata: ${jsonText({ seq: m.seq, type: m.kind, ...m.data })}\n\n`;
}

/** No tenant and no scope label: the stream is public, so it names only ids and states. */
export function publish(s: StreamState, kind: string, data: Record<string, unknown>): void {
  const last = s.messages[s.messages.length - 1];
  const m: StreamMessage = { seq: (last?.seq ?? 0) + 1, kind, data: { ...data, occurredAt: s.iso() } };
  s.messages.push(m);
  if (s.messages.length > BACKLOG) s.messages.shift();
  const text = frame(m);
  for (const c of s.clients) c.write(text);
}

function after(ctx: Ctx): number | undefined {
  const lastId = header(ctx.req, 'last-event-id');
  if (lastId !== undefined && /^\d{1,15}$/.test(lastId.trim())) return Number(lastId.trim());
  const cursor = ctx.query.get('cursor');
  if (cursor === null) return undefined;
  if (!/^\d{1,15}$/.test(cursor)) throw new ApiError('invalid_request', 'cursor must be an integer of at least 0');
  return Number(cursor);
}

/** maxMs > 0: the answer ends after that long (a router's request timeout); EventSource reconnects. */
export function openStream(s: StreamState, ctx: Ctx, maxMs = 0): void {
  const from = after(ctx);
  ctx.res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    'x-accel-buffering': 'no',
    'x-request-id': ctx.requestId,
    'service-version': ctx.version,
  });
  ctx.res.write('retry: 2000\n\n');
  if (from !== undefined) for (const m of s.messages) if (m.seq > from) ctx.res.write(frame(m));
  s.clients.add(ctx.res);
  const drop = () => s.clients.delete(ctx.res);
  ctx.req.on('close', drop);
  ctx.res.on('close', drop);
  if (maxMs > 0) {
    const t = setTimeout(() => ctx.res.end(), maxMs);
    ctx.res.on('close', () => clearTimeout(t));
  }
}

export function closeStream(s: StreamState): void {
  if (s.heartbeat) clearInterval(s.heartbeat);
  for (const c of s.clients) c.end();
  s.clients.clear();
}
