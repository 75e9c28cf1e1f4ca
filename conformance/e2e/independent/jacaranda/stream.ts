// The public status stream: one sequence for the deployment, the whole backlog retained, resumption by
// Last-Event-ID (wins when both are sent: it is what a reconnecting client sends) or ?cursor; a comment
// heartbeat every 2 s. Messages name connection ids and states only, no tenant data (the stream is public).
import type { ServerResponse } from 'node:http';
import { ApiError, type Ctx } from './http.ts';
import { nowIso } from './state.ts';

interface Message {
  seq: number;
  event: string;
  data: string;
}

export interface Stream {
  backlog: Message[];
  clients: Set<ServerResponse>;
  heartbeatMs: number;
  /** The number before the first message (0: numbering starts at 1). */
  seqBase: number;
  /** A gateway's stream deadline: each stream is ended after this many ms (0: never). */
  maxMs: number;
}

export function newStream(heartbeatMs = 2000, seqBase = 0, maxMs = 0): Stream {
  return { backlog: [], clients: new Set(), heartbeatMs, seqBase, maxMs };
}

function frame(m: Message): string {
  return `id: ${m.seq}\nevent: ${m.event}\ndata: ${m.data}\n\n`;
}

/** Appends a message and sends it to every open stream. */
export function publish(s: Stream, event: string, payload: Record<string, string>): void {
  const seq = s.seqBase + s.backlog.length + 1;
  const data = JSON.stringify({ sequence: String(seq), type: event, time: nowIso(), ...payload });
  const m = { seq, event, data };
  s.backlog.push(m);
  for (const c of s.clients) c.write(frame(m));
}

function parseCursor(raw: string, name: string): number {
  if (!/^\d+$/.test(raw.trim())) {
    throw new ApiError('invalid_request', `${name} must be an integer of at least 0`, {
      detail: 'the last number read',
    });
  }
  return Number(raw.trim());
}

/** GET /stream */
export function openStream(s: Stream, ctx: Ctx): void {
  const header = ctx.req.headers['last-event-id'];
  const cursor = ctx.query.get('cursor');
  let after = 0;
  if (cursor !== null) after = parseCursor(cursor, 'cursor');
  if (header !== undefined && String(header).trim() !== '') after = parseCursor(String(header), 'Last-Event-ID');
  const res = ctx.res;
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  res.write('retry: 2000\n\n');
  for (const m of s.backlog) if (m.seq > after) res.write(frame(m));
  s.clients.add(res);
  const beat = setInterval(() => res.write(': heartbeat\n\n'), s.heartbeatMs);
  const deadline = s.maxMs > 0 ? setTimeout(() => res.end(), s.maxMs) : undefined;
  const done = () => {
    clearInterval(beat);
    clearTimeout(deadline);
    s.clients.delete(res);
  };
  res.on('close', done);
  ctx.req.on('close', done);
}

export function closeStreams(s: Stream): void {
  for (const c of s.clients) c.destroy();
  s.clients.clear();
}
