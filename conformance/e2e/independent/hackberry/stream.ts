// The status stream: one global sequence (a PostgreSQL bigserial on `stream_events`), replayed after the
// client's cursor, then live. Dream's `Dream.stream` writes the same lines. Payloads name no tenant, since
// the stream is public; message kinds are the team's variant names in snake_case (connection_created).
import type { ServerResponse } from 'node:http';
import { type Call, Failure, type Rec } from './http.ts';
import type { Store } from './state.ts';

interface Message {
  seq: number;
  kind: string;
  data: Rec;
}

interface Feed {
  log: Message[];
  clients: Set<{ res: ServerResponse; after: number }>;
}

const feeds = new WeakMap<Store, Feed>();

function feed(store: Store): Feed {
  let f = feeds.get(store);
  if (!f) {
    f = { log: [], clients: new Set() };
    feeds.set(store, f);
  }
  return f;
}

function frame(m: Message): string {
  return `id: ${m.seq}\nevent: ${m.kind}\ndata: ${JSON.stringify({ seq: m.seq, kind: m.kind, ...m.data })}\n\n`;
}

export function emit(store: Store, _tenant: string, kind: string, data: Rec): void {
  const f = feed(store);
  const m = { seq: f.log.length + 1, kind, data: { ...data, at: new Date().toISOString() } };
  f.log.push(m);
  for (const c of f.clients) c.res.write(frame(m));
}

function position(raw: string | null | undefined, name: string): number | undefined {
  if (raw === null || raw === undefined || raw.trim() === '') return undefined;
  if (!/^\d+$/.test(raw.trim())) throw new Failure('invalid_request', `${name}: expected an integer, minimum 0`);
  return Number(raw.trim());
}

export function openStream(call: Call, store: Store): void {
  const cursor = position(call.query.get('cursor'), 'cursor');
  const last = position(call.headers['last-event-id'], 'Last-Event-ID');
  const after = cursor ?? last ?? 0;
  const f = feed(store);
  const res = call.res;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-request-id': call.requestId,
    'x-accel-buffering': 'no',
  });
  res.write('retry: 2000\n\n');
  for (const m of f.log) if (m.seq > after) res.write(frame(m));
  const client = { res, after };
  f.clients.add(client);
  const ping = setInterval(() => res.write(': ping\n\n'), 15_000);
  ping.unref();
  res.on('close', () => {
    clearInterval(ping);
    f.clients.delete(client);
  });
}

/** Ends every open stream, so close() of the servers does not wait on them. */
export function closeStreams(store: Store): void {
  for (const c of feed(store).clients) c.res.end();
}
