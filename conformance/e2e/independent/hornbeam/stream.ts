// The status stream: one public sequence (no tenant ids or labels in it), numbered from 1. Each stream
// opens with a `retry:` hint, sends heartbeat comments and is closed by the edge after a short lifetime, so
// clients resume with Last-Event-ID (which wins over ?cursor: a reconnecting EventSource sends both).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { State, StreamEvent } from './state.ts';
import { type Answer, fail } from './util.ts';

function append(state: State, feed: string, event: string, data: Record<string, unknown>): void {
  let list = state.feeds.get(feed);
  if (!list) {
    list = [];
    state.feeds.set(feed, list);
  }
  const e: StreamEvent = { seq: list.length + 1, event, data };
  list.push(e);
  for (const l of state.streamListeners) l(feed, e);
}

/** One message on the public feed (no tenant data) and, with tenant streams, a fuller one on the tenant's. */
export function publish(
  state: State,
  event: string,
  data: Record<string, unknown>,
  tenant: string,
  tenantData: Record<string, unknown>,
): void {
  append(state, 'public', event, data);
  if (state.opts.tenantStreams) append(state, `tenant:${tenant}`, event, { ...data, ...tenantData });
}

/** The resume point, or a refusal for a malformed one. */
export function resumePoint(req: IncomingMessage, url: URL): number | null | Answer {
  const header = req.headers['last-event-id'];
  const raw = typeof header === 'string' && header.trim() !== '' ? header.trim() : url.searchParams.get('cursor');
  if (raw === null) return null;
  if (!/^\d{1,15}$/.test(raw)) return fail('invalid_request', 'cursor and Last-Event-ID must be integers >= 0');
  return Number(raw);
}

const frame = (e: StreamEvent) => `id: ${e.seq}\nevent: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`;

export function openStream(
  state: State,
  feed: string,
  res: ServerResponse,
  after: number | null,
  headers: Record<string, string>,
  open: Set<ServerResponse>,
): void {
  res.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    'x-accel-buffering': 'no',
  });
  open.add(res);
  res.write(`retry: 1500\n: hornbeam status stream, closes after ${state.opts.streamLifetimeMs} ms\n\n`);
  // Without a resume point the stream starts live: messages from now on.
  const events = () => state.feeds.get(feed) ?? [];
  let last = after ?? events().length;
  const send = (e: StreamEvent) => {
    if (e.seq !== last + 1) return;
    last = e.seq;
    res.write(frame(e));
  };
  const listener = (f: string, e: StreamEvent) => {
    if (f === feed) send(e);
  };
  state.streamListeners.add(listener);
  for (const e of events().slice(last)) send(e);
  const beat = setInterval(() => !res.writableEnded && res.write(`: ping ${Date.now()}\n\n`), state.opts.heartbeatMs);
  const end = setTimeout(() => res.end(), state.opts.streamLifetimeMs);
  const cleanup = () => {
    clearInterval(beat);
    clearTimeout(end);
    state.streamListeners.delete(listener);
    open.delete(res);
  };
  res.on('close', cleanup);
  res.on('finish', cleanup);
}
