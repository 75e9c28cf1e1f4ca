// The status stream, as Nest's @Sse() serves an RxJS Observable: one public sequence (no tenant names
// in it), backlog replay after Last-Event-ID (preferred) or ?cursor, then live messages; a comment
// line every 15 s keeps proxies (Kong) from closing an idle stream.
import type { ServerResponse } from 'node:http';
import { later, type State, type StreamMessage } from './state.ts';
import { badRequest, type Ctx } from './util.ts';

export const STREAM_KINDS = ['connection.created', 'connection.updated'];
const subscribers = new WeakMap<State, Set<(m: StreamMessage) => void>>();

function subs(state: State): Set<(m: StreamMessage) => void> {
  let s = subscribers.get(state);
  if (!s) {
    s = new Set();
    subscribers.set(state, s);
  }
  return s;
}

/** Appends a message (the RxJS Subject's next()). */
export function publish(state: State, event: string, payload: Record<string, unknown>): void {
  const id = state.stream.length + 1;
  const m: StreamMessage = { id, event, data: JSON.stringify({ sequence: id, kind: event, ...payload }) };
  state.stream.push(m);
  for (const fn of subs(state)) fn(m);
}

const frame = (m: StreamMessage, typed: boolean): string =>
  typed ? `id: ${m.id}\nevent: ${m.event}\ndata: ${m.data}\n\n` : `id: ${m.id}\ndata: ${m.data}\n\n`;

/** The heartbeat variant: an interval(n) merged into the Subject, each tick a numbered message. */
export function startHeartbeat(state: State): void {
  const ms = state.opts.heartbeatMs;
  if (!ms) return;
  const tick = (): void => {
    publish(state, 'system.heartbeat', { occurredAt: new Date().toISOString() });
    later(state, ms, tick);
  };
  later(state, ms, tick);
}

function parseResume(ctx: Ctx): number {
  const header = ctx.req.headers['last-event-id'];
  const raw = typeof header === 'string' && header.trim() !== '' ? header.trim() : ctx.query.get('cursor');
  if (raw === null) return -1;
  if (!/^\d+$/.test(raw)) throw badRequest('cursor / Last-Event-ID must be an integer >= 0');
  return Number(raw);
}

export function serveStream(state: State, ctx: Ctx, onClose: (res: ServerResponse) => void): void {
  const after = parseResume(ctx);
  const res = ctx.res;
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-request-id': ctx.requestId,
  });
  res.write(`retry: 3000\n: stream open, request ${ctx.requestId}\n\n`);
  // Without a resume point the stream starts live; with one, every later message is replayed first.
  let last = after >= 0 ? after : state.stream.length;
  for (const m of state.stream) if (m.id > last) res.write(frame(m, !state.opts.untypedStream));
  last = Math.max(last, state.stream.length);
  const send = (m: StreamMessage): void => {
    if (m.id <= last) return;
    last = m.id;
    res.write(frame(m, !state.opts.untypedStream));
  };
  subs(state).add(send);
  const beat = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
  const stop = (): void => {
    clearInterval(beat);
    subs(state).delete(send);
  };
  res.on('close', stop);
  onClose(res);
}
