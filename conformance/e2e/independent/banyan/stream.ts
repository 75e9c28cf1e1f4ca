// banyan's status stream: the event store's events as Server-Sent Events, numbered by their global position.
// Resumption: Last-Event-ID (what a reconnecting EventSource sends) wins over ?cursor; without either, live only.
import type { Call, Result, Route } from './state.ts';
import type { StoredEvent } from './store.ts';
import { ApiError } from './util.ts';

function lastRead(call: Call): number | undefined {
  const header = call.req.headers['last-event-id'];
  const cursor = call.url.searchParams.get('cursor');
  const raw = typeof header === 'string' && header.trim() !== '' ? header.trim() : cursor;
  if (raw === null) return undefined;
  if (!/^\d{1,15}$/.test(raw)) {
    throw new ApiError('invalid_request', 'cursor and Last-Event-ID must be an integer of at least 0');
  }
  return Number(raw);
}

export function frame(e: StoredEvent, named = true): string {
  const data = {
    position: e.position,
    eventId: e.eventId,
    kind: e.kind,
    tenant: e.tenant,
    occurredAt: e.occurredAt,
    connectionId: e.data.connection.id,
    state: e.data.connection.state,
    previousState: e.data.previousState,
  };
  // Unnamed: every message is of the default type `message`; the kind is in the data only.
  return `id: ${e.position}\n${named ? `event: ${e.kind}\n` : ''}data: ${JSON.stringify(data)}\n\n`;
}

function stream(call: Call): Result {
  const { store } = call.state;
  const from = lastRead(call) ?? store.events.length;
  const { res, req } = call;
  res.writeHead(200, {
    ...call.ctx.headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-request-id': call.ctx.requestId,
  });
  res.write(`retry: 2000\n: banyan stream, after position ${from}\n\n`);
  let sent = from;
  let count = 0;
  const max = call.state.options.streamMaxMessages;
  const push = (e: StoredEvent) => {
    // Exactly once and in order: a listener fired during the backlog write cannot repeat a position.
    if (e.position !== sent + 1 || res.writableEnded) return;
    res.write(frame(e, !call.state.options.streamUnnamed));
    sent = e.position;
    // A bounded response (like a proxy's idle or size cut): the client reconnects with Last-Event-ID.
    if (max > 0 && ++count >= max) res.end();
  };
  for (const e of store.after(from)) push(e);
  store.listeners.add(push);
  const beat = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
  const maxMs = call.state.options.streamMaxMs;
  const cut = maxMs > 0 ? setTimeout(() => res.end(), maxMs) : undefined;
  const stop = () => {
    clearInterval(beat);
    clearTimeout(cut);
    store.listeners.delete(push);
  };
  req.on('close', stop);
  res.on('close', stop);
  return undefined;
}

export const STREAM_ROUTE: Route = {
  method: 'GET',
  path: '/stream',
  auth: false,
  purpose: 'status stream (Server-Sent Events)',
  handle: stream,
};
