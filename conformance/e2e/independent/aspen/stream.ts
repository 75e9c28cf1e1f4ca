// The public status stream (SSE): one numbered sequence for the deployment, retained for resumption by
// `?cursor=` (wins) or Last-Event-ID. Messages carry ids and states only, no tenant data, as the stream is
// public. A `retry:` field opens the stream; a comment every 15 s keeps proxies from closing it.
import type { ServerResponse } from 'node:http';
import { checkVersion } from './auth.ts';
import { type Call, HttpError } from './http-kit.ts';
import type { State } from './state.ts';

interface Message {
  seq: number;
  kind: string;
  payload: Record<string, unknown>;
}
interface Hub {
  seq: number;
  backlog: Message[];
  clients: Set<ServerResponse>;
}
const RETAIN = 10_000;
const hubs = new WeakMap<State, Hub>();

function hubOf(state: State): Hub {
  let h = hubs.get(state);
  if (h === undefined) {
    h = { seq: 0, backlog: [], clients: new Set() };
    hubs.set(state, h);
  }
  return h;
}

function frame(m: Message): string {
  return `id: ${m.seq}\nevent: ${m.kind}\ndata: ${JSON.stringify({ sequence: m.seq, kind: m.kind, ...m.payload })}\n\n`;
}

export function publish(state: State, kind: string, payload: Record<string, unknown>): void {
  const hub = hubOf(state);
  hub.seq += 1;
  const m = { seq: hub.seq, kind, payload: { ...payload, at: new Date().toISOString() } };
  hub.backlog.push(m);
  if (hub.backlog.length > RETAIN) hub.backlog.splice(0, hub.backlog.length - RETAIN);
  const text = frame(m);
  for (const res of hub.clients) res.write(text);
}

function position(call: Call, headerWins: boolean): number | undefined {
  const cursor = call.url.searchParams.get('cursor');
  const header = call.req.headers['last-event-id'];
  const fromHeader = typeof header === 'string' ? header.trim() : undefined;
  const raw = headerWins ? (fromHeader ?? cursor ?? undefined) : (cursor ?? fromHeader);
  const named = raw === cursor ? 'cursor' : 'Last-Event-ID';
  if (raw === undefined) return undefined;
  if (!/^[0-9]{1,20}$/.test(raw)) {
    throw new HttpError('invalid_request', `${named} must be an integer >= 0`, {
      hint: 'send the number of the last message read',
    });
  }
  return Number(raw);
}

/** GET /stream (public). */
export function openStream(state: State, call: Call): void {
  checkVersion(call, state.opts.versionEverywhere);
  for (const k of call.url.searchParams.keys()) {
    if (k !== 'cursor') throw new HttpError('invalid_request', `unknown query parameter ${k}`);
  }
  const after = position(call, state.opts.lastEventIdWins);
  const hub = hubOf(state);
  const res = call.res;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-request-id': call.requestId,
  });
  res.write(': aspen status stream\nretry: 3000\n\n');
  if (after !== undefined) for (const m of hub.backlog) if (m.seq > after) res.write(frame(m));
  hub.clients.add(res);
  const beat = setInterval(
    () => !res.writableEnded && res.write(`: heartbeat ${new Date().toISOString()}\n\n`),
    state.opts.heartbeatMs,
  );
  beat.unref();
  const stop = () => {
    clearInterval(beat);
    hub.clients.delete(res);
  };
  res.on('close', stop);
  call.req.on('close', stop);
}

export function closeStreams(state: State): void {
  for (const res of hubOf(state).clients) res.end();
  hubOf(state).clients.clear();
}
