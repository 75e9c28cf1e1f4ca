// The status stream: a Phoenix.PubSub-like hub with one public, consecutively numbered log, served as SSE.
// Only data messages carry an `id:` line; the greeting comment and keep-alives carry none.
import type { ServerResponse } from 'node:http';
import { ApiError, type Conn, header } from './conn.ts';

export interface StreamMessage {
  seq: number;
  event: string;
  data: Record<string, unknown>;
}

export interface Hub {
  log: StreamMessage[];
  subscribers: Set<ServerResponse>;
  keepAliveMs: number;
  timers: Set<NodeJS.Timeout>;
}

const RETAINED = 10_000;

export function createHub(keepAliveMs: number): Hub {
  return { log: [], subscribers: new Set(), keepAliveMs, timers: new Set() };
}

function frame(m: StreamMessage): string {
  return `id: ${m.seq}\nevent: ${m.event}\ndata: ${JSON.stringify({ seq: m.seq, event: m.event, ...m.data })}\n\n`;
}

/** Broadcasts a status change; the payload names no tenant and no scope label (the stream is public). */
export function publish(hub: Hub, event: string, data: Record<string, unknown>): void {
  const last = hub.log[hub.log.length - 1];
  const m: StreamMessage = { seq: (last?.seq ?? 0) + 1, event, data };
  hub.log.push(m);
  if (hub.log.length > RETAINED) hub.log.shift();
  for (const res of hub.subscribers) res.write(frame(m));
}

function position(raw: string | undefined, what: string): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d{1,15}$/.test(raw)) {
    throw new ApiError('invalid_request', `${what} must be an integer of at least 0`, {
      pointer: what === 'cursor' ? '/query/cursor' : '/headers/last-event-id',
    });
  }
  return Number(raw);
}

/** GET /stream: Last-Event-ID (the browser's reconnection) wins over ?cursor; both mean "last number read". */
export function openStream(hub: Hub, conn: Conn): void {
  const cursor = conn.query.has('cursor') ? position(conn.query.get('cursor') ?? '', 'cursor') : undefined;
  const lastId = position(header(conn, 'last-event-id'), 'Last-Event-ID');
  const after = lastId ?? cursor;
  const res = conn.res;
  res.writeHead(200, {
    ...conn.headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.write(': cherry status stream\nretry: 2000\n\n');
  if (after !== undefined) {
    for (const m of hub.log) if (m.seq > after) res.write(frame(m));
  }
  hub.subscribers.add(res);
  const timer = setInterval(() => res.write(': keep-alive\n\n'), hub.keepAliveMs);
  hub.timers.add(timer);
  const done = () => {
    clearInterval(timer);
    hub.timers.delete(timer);
    hub.subscribers.delete(res);
  };
  res.on('close', done);
  conn.req.on('close', done);
}

export function closeHub(hub: Hub): void {
  for (const t of hub.timers) clearInterval(t);
  for (const res of hub.subscribers) res.end();
  hub.subscribers.clear();
}
