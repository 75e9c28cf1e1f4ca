// The status stream: Server-Sent Events numbered per feed (one feed per tenant, read with credentials, and a
// public feed without tenant data), resumable by Last-Event-ID or ?cursor (last number read).
import { ApiError, type Call } from './http-kit.ts';
import type { Feed, State, StreamMessage } from './state.ts';

const RETAINED = 5000;
const PUBLIC = 'public';

function feed(state: State, name: string): Feed {
  let f = state.feeds.get(name);
  if (f === undefined) {
    f = { messages: [], listeners: new Set() };
    state.feeds.set(name, f);
  }
  return f;
}

function append(f: Feed, event: string, payload: Record<string, unknown>): void {
  const id = (f.messages.at(-1)?.id ?? 0) + 1;
  const m: StreamMessage = { id, event, data: JSON.stringify({ sequence: id, event, ...payload }) };
  f.messages.push(m);
  if (f.messages.length > RETAINED) f.messages.shift();
  for (const l of f.listeners) l(m);
}

/** A change of a tenant: the full message on the tenant's feed, a bare notice (no tenant data) on the public one. */
export function publish(state: State, tenant: string, event: string, payload: Record<string, unknown>): void {
  append(feed(state, `tenant:${tenant}`), event, { tenant, ...payload });
  append(feed(state, PUBLIC), event, { at: payload.at });
}

function lastRead(call: Call): number | undefined {
  const header = call.headers['last-event-id'];
  const query = call.query.get('cursor');
  const parse = (v: string, name: string) => {
    if (!/^\d{1,15}$/.test(v.trim())) {
      throw new ApiError('invalid_request', `${name} must be an integer of at least 0.`);
    }
    return Number(v.trim());
  };
  const fromQuery = query === null ? undefined : parse(query, 'Query parameter cursor');
  // A reconnecting EventSource sends Last-Event-ID beside the cursor it was opened with: the header is newer.
  if (header !== undefined && header.trim() !== '') return parse(header, 'Header Last-Event-ID');
  return fromQuery;
}

function frame(m: StreamMessage): string {
  return `id: ${m.id}\nevent: ${m.event}\ndata: ${m.data}\n\n`;
}

/** GET /stream for `tenant` (undefined: the public feed). */
export function openStream(state: State, call: Call, tenant: string | undefined): void {
  const after = lastRead(call);
  const f = feed(state, tenant === undefined ? PUBLIC : `tenant:${tenant}`);
  const { res } = call;
  res.statusCode = 200;
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache');
  res.setHeader('X-Accel-Buffering', 'no');
  res.setHeader('X-Request-Id', call.requestId);
  res.flushHeaders();
  res.write('retry: 2000\n\n');
  if (after !== undefined) {
    for (const m of f.messages) if (m.id > after) res.write(frame(m));
  }
  const listener = (m: StreamMessage) => {
    res.write(frame(m));
  };
  f.listeners.add(listener);
  const beat = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
  // Spring's SseEmitter timeout: the server may end a stream; the client resumes with Last-Event-ID.
  const limit = state.options.sseTimeoutMs > 0 ? setTimeout(() => res.end(), state.options.sseTimeoutMs) : undefined;
  res.on('close', () => {
    clearTimeout(limit);
    clearInterval(beat);
    f.listeners.delete(listener);
  });
}
