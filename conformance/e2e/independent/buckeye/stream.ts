// GET /stream: Server-Sent Events. Every message has a consecutive number as its `id`; a client resumes
// after the number it last read, from `Last-Event-ID` (what an EventSource sends on reconnect) or, when that
// header is absent, from `?cursor`. Without either, the stream starts at the live edge.
// A connection's events are published here: to the stream (numbered, no tenant data) and to the tenant's
// webhooks (signed deliveries); the audit chain is written by the handler that changed something.
import { accepts, badRequest, type Ctx } from './http-kit.ts';
import type { Connection, State, StreamMessage } from './state.ts';
import { newId, timestamp } from './values.ts';
import { deliverEvent } from './webhooks.ts';

function position(ctx: Ctx, cursorFirst: boolean): number | undefined {
  const header = ctx.req.headers['last-event-id'];
  const fromHeader = Array.isArray(header) ? header[0] : header;
  const query = ctx.url.searchParams.get('cursor');
  if (fromHeader !== undefined && fromHeader !== '' && !(cursorFirst && query !== null)) {
    if (!/^\d+$/.test(fromHeader)) throw badRequest('Last-Event-ID must be a message number (integer, minimum 0)');
    if (query !== null && !/^\d+$/.test(query)) throw badRequest('cursor must be an integer, minimum 0');
    return Number(fromHeader);
  }
  if (query === null) return undefined;
  if (!/^\d+$/.test(query)) throw badRequest('cursor must be an integer, minimum 0');
  return Number(query);
}

/** One message; `compact` writes fields without the optional space and the data pretty-printed over lines. */
function frame(m: StreamMessage, compact: boolean): string {
  if (!compact) return `id: ${m.seq}\nevent: ${m.event}\ndata: ${JSON.stringify(m.data)}\n\n`;
  const data = JSON.stringify(m.data, null, 2)
    .split('\n')
    .map((line) => `data:${line}`)
    .join('\n');
  return `event:${m.event}\n${data}\nid:${m.seq}\n\n`;
}

export function openStream(state: State, ctx: Ctx): void {
  if (!accepts(ctx.req.headers.accept, 'text/event-stream')) {
    throw badRequest('not acceptable', 'this endpoint answers text/event-stream only');
  }
  const from = position(ctx, state.options.cursorOverHeader);
  const { res } = ctx;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    'x-accel-buffering': 'no',
    'x-request-id': ctx.requestId,
    'service-version': ctx.version,
  });
  if (ctx.method === 'HEAD') {
    res.end();
    return;
  }
  res.write(`retry: 2000\n: buckeye status stream, latest ${state.stream.at(-1)?.seq ?? 0}\n\n`);
  let sent = from ?? (state.options.streamFromStart ? 0 : (state.stream.at(-1)?.seq ?? 0));
  const push = (m: StreamMessage) => {
    // Exactly once and in order: a message at or below what was sent is never written again.
    if (m.seq <= sent) return;
    sent = m.seq;
    res.write(frame(m, state.options.sseCompact));
  };
  for (const m of state.stream) push(m);
  state.streamListeners.add(push);
  const beat = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
  const stop = () => {
    clearInterval(beat);
    state.streamListeners.delete(push);
  };
  res.on('close', stop);
  // A proxy-style lifetime: the stream ends after `streamMaxMs`; the client resumes with Last-Event-ID.
  if (state.options.streamMaxMs > 0) {
    const end = setTimeout(() => res.end(), state.options.streamMaxMs);
    res.on('close', () => clearTimeout(end));
  }
  ctx.req.on('close', stop);
}

export const STREAM_EVENTS = ['connection.created', 'connection.enabled'];

export function publishConnection(state: State, tenant: string, type: string, connection: Connection): void {
  const eventId = newId('evt');
  const at = timestamp();
  const seq = (state.stream.at(-1)?.seq ?? 0) + 1;
  const message = {
    seq,
    event: type,
    data: {
      eventId,
      type,
      connectionId: connection.id,
      connectorId: connection.connectorId,
      environment: connection.environment,
      state: connection.state,
      at,
    },
  };
  state.stream.push(message);
  for (const listener of state.streamListeners) listener(message);
  deliverEvent(state, tenant, { id: eventId, type, createdAt: at, data: { connection } });
}
