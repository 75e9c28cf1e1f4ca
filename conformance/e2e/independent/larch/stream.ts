// The public status stream: one global sequence of state changes (no tenant data: the endpoint is public),
// kept in memory (the last 10 000) and resumed by Last-Event-ID or ?cursor (the header wins, as in the SSE spec).
import { type Ctx, fail, instant, invalid } from './http-kit.ts';
import type { State } from './store.ts';

export type StreamEvent = { seq: number; type: string; data: Record<string, unknown> };

type Hub = { events: StreamEvent[]; next: number; listeners: Set<(e: StreamEvent) => void> };

const hubs = new WeakMap<State, Hub>();

function hub(state: State): Hub {
  let h = hubs.get(state);
  if (!h) {
    h = { events: [], next: 1, listeners: new Set() };
    hubs.set(state, h);
  }
  return h;
}

export function publishStatus(state: State, type: string, data: Record<string, unknown>): void {
  const h = hub(state);
  const e: StreamEvent = { seq: h.next, type, data: { sequence: h.next, type, occurredAt: instant(), ...data } };
  h.next += 1;
  h.events.push(e);
  if (h.events.length > 10_000) h.events.shift();
  for (const l of h.listeners) l(e);
}

/** Spring's ServerSentEvent encoding: no space after the field colon (legal SSE: the space is optional). */
function frame(e: StreamEvent): string {
  return `id:${e.seq}\nevent:${e.type}\ndata:${JSON.stringify(e.data)}\n\n`;
}

function parsePosition(value: string, name: string): number {
  if (!/^\d{1,15}$/.test(value)) {
    throw invalid(
      'Invalid stream position',
      `${name} must be an integer of at least 0.`,
      'Send the number of the last message read.',
    );
  }
  return Number(value);
}

export function openStream(state: State, ctx: Ctx, closers: Set<() => void>): void {
  let after: number | undefined;
  try {
    const header = ctx.req.headers['last-event-id'];
    const cursor = ctx.query.get('cursor');
    if (cursor !== null) after = parsePosition(cursor, 'cursor');
    if (typeof header === 'string' && header.trim() !== '') after = parsePosition(header.trim(), 'Last-Event-ID');
  } catch (e) {
    fail(ctx, e as never);
    return;
  }
  const h = hub(state);
  const { res } = ctx;
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-request-id': ctx.requestId,
    'x-accel-buffering': 'no',
  });
  res.write(':larch status stream\nretry:3000\n\n');
  if (after !== undefined) {
    const from = after;
    for (const e of h.events) if (e.seq > from) res.write(frame(e));
  }
  const listener = (e: StreamEvent) => res.write(frame(e));
  h.listeners.add(listener);
  const beat = setInterval(() => res.write(':keep-alive\n\n'), 15_000);
  const close = () => {
    clearInterval(beat);
    h.listeners.delete(listener);
    closers.delete(close);
    res.end();
  };
  closers.add(close);
  if (state.config.streamTimeoutMs > 0) {
    const t = setTimeout(close, state.config.streamTimeoutMs);
    ctx.req.on('close', () => clearTimeout(t));
  }
  ctx.req.on('close', close);
}
