// GET /stream: one public Server-Sent Events sequence (ids 1, 2, …). Resumption: Last-Event-ID wins over ?cursor
// (the header is what an EventSource sends on reconnect); both mean "last number read", 0 = from the start.
import type { ServerResponse } from 'node:http';
import { ApiError, type Ctx } from './http-kit.ts';
import type { Store, StreamMessage } from './state.ts';

const HEARTBEAT_MS = 15_000;
const open = new WeakMap<Store, Set<ServerResponse>>();

function lastRead(ctx: Ctx): number {
  const header = ctx.req.headers['last-event-id'];
  const fromHeader = Array.isArray(header) ? header[0] : header;
  const cursor = ctx.url.searchParams.get('cursor');
  const [raw, name] =
    fromHeader !== undefined && fromHeader.trim() !== '' ? [fromHeader.trim(), 'Last-Event-ID'] : [cursor, 'cursor'];
  if (raw === null) return -1;
  if (!/^\d{1,15}$/.test(raw)) {
    throw new ApiError('invalid_request', `The ${name} value is invalid.`, `'${name}' must be an integer, minimum 0.`);
  }
  return Number(raw);
}

function frame(m: StreamMessage): string {
  return `id: ${m.seq}\nevent: ${m.type}\ndata: ${JSON.stringify({ sequenceNumber: m.seq, type: m.type, ...m.data })}\n\n`;
}

export function openStream(store: Store, ctx: Ctx): void {
  const after = lastRead(ctx);
  const res = ctx.res;
  res.writeHead(200, {
    ...ctx.headers,
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
    'X-Request-Id': ctx.requestId,
  });
  res.write('retry: 2000\n\n');
  // No number given: only what happens from now on. A number: everything after it, then live.
  if (after >= 0) for (const m of store.stream.slice(after)) res.write(frame(m));
  const onMessage = (m: StreamMessage) => res.write(frame(m));
  store.bus.on('stream', onMessage);
  const beat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
  let set = open.get(store);
  if (!set) {
    set = new Set();
    open.set(store, set);
  }
  set.add(res);
  const stop = () => {
    clearInterval(beat);
    store.bus.off('stream', onMessage);
    open.get(store)?.delete(res);
  };
  res.on('close', stop);
}

export function closeStreams(store: Store): void {
  for (const res of open.get(store) ?? []) res.destroy();
}
