// The status stream (Server-Sent Events): one numbered log per tenant (an authenticated reader gets its
// tenant's messages) and one public log with anonymous activity only. Numbers are consecutive per log;
// without a cursor the reader gets live messages only, with one the backlog after it first.
import type { ServerResponse } from 'node:http';
import { ApiError, type Ctx } from './http.ts';
import { dartNow, type Rec } from './state.ts';

interface Message {
  id: number;
  event: string;
  data: string;
}

export interface Streams {
  logs: Map<string, Message[]>;
  readers: Map<string, Set<ServerResponse>>;
}

export const newStreams = (): Streams => ({ logs: new Map(), readers: new Map() });
export const PUBLIC = '*public*';

const frame = (m: Message) => `id: ${m.id}\nevent: ${m.event}\ndata: ${m.data}\n\n`;

export function publish(s: Streams, scope: string, event: string, payload: Rec): void {
  const log = s.logs.get(scope) ?? [];
  s.logs.set(scope, log);
  const m: Message = { id: log.length + 1, event, data: JSON.stringify({ ...payload, emittedAt: dartNow() }) };
  log.push(m);
  for (const res of s.readers.get(scope) ?? []) res.write(frame(m));
}

/** The last number read: Last-Event-ID (what a reconnecting EventSource sends) before ?cursor=. */
function resumeAfter(ctx: Ctx): number | undefined {
  const header = ctx.req.headers['last-event-id'];
  const raw = typeof header === 'string' && header !== '' ? header : ctx.url.searchParams.get('cursor');
  if (raw === null || raw === undefined) return undefined;
  if (!/^\d+$/.test(raw)) throw new ApiError(400, 'invalid_request', 'cursor must be an integer of at least 0');
  return Number(raw);
}

export function openStream(s: Streams, ctx: Ctx, scope: string, replayAll: boolean): void {
  const after = resumeAfter(ctx) ?? (replayAll ? 0 : undefined);
  const { res } = ctx;
  res.writeHead(200, {
    ...ctx.headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-request-id': ctx.requestId,
  });
  res.write('retry: 3000\n\n');
  if (after !== undefined) for (const m of (s.logs.get(scope) ?? []).slice(after)) res.write(frame(m));
  const readers = s.readers.get(scope) ?? new Set();
  s.readers.set(scope, readers);
  readers.add(res);
  const beat = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
  res.on('close', () => {
    clearInterval(beat);
    readers.delete(res);
  });
}

export function closeAll(s: Streams): void {
  for (const set of s.readers.values()) for (const res of set) res.end();
}
