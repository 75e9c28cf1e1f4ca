// The public status stream: one consecutive sequence for the whole service, a retained backlog for resumption
// (Last-Event-ID wins over ?cursor when both are sent: it is the reconnecting client's own header), no tenant
// data in messages (the stream is public): a connection id, its state and the environment only.
import { type Ctx, header } from './http.ts';
import { cursor as parseCursor, queryText } from './validate.ts';

export interface StreamMessage {
  id: number;
  event: string;
  data: Record<string, unknown>;
}

export interface StreamState {
  seq: number;
  backlog: StreamMessage[];
  subscribers: Set<(m: StreamMessage) => void>;
  sockets: Set<Ctx['res']>;
}

const BACKLOG = 5000;

export function createStream(): StreamState {
  return { seq: 0, backlog: [], subscribers: new Set(), sockets: new Set() };
}

export function publish(s: StreamState, event: string, data: Record<string, unknown>): void {
  s.seq += 1;
  const m: StreamMessage = { id: s.seq, event, data: { sequence: s.seq, kind: event, ...data } };
  s.backlog.push(m);
  if (s.backlog.length > BACKLOG) s.backlog.shift();
  for (const fn of s.subscribers) fn(m);
}

function frame(m: StreamMessage): string {
  return `id: ${m.id}\nevent: ${m.event}\ndata: ${JSON.stringify(m.data)}\n\n`;
}

/** Validates the resume position before the stream opens, so a bad one gets a JSON 400. */
export function resumeFrom(ctx: Ctx): number {
  const last = header(ctx, 'last-event-id');
  if (last !== undefined && last.trim() !== '') return parseCursor(last.trim(), 'Last-Event-ID');
  const c = queryText(ctx.query, 'cursor');
  if (c !== undefined) return parseCursor(c, 'cursor');
  return -1;
}

/** `maxMs`: the stream is ended after that long (a load balancer's response timeout); clients resume. */
export function openStream(s: StreamState, ctx: Ctx, maxMs?: number): void {
  const after = resumeFrom(ctx);
  const res = ctx.res;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-correlation-id': ctx.correlationId,
    'x-accel-buffering': 'no',
  });
  res.write(`retry: 2000\n: acacia status stream, head ${s.seq}\n\n`);
  // No current position given: live messages only.
  if (after >= 0) for (const m of s.backlog) if (m.id > after) res.write(frame(m));
  const send = (m: StreamMessage) => res.write(frame(m));
  s.subscribers.add(send);
  s.sockets.add(res);
  const beat = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
  beat.unref();
  const cut = maxMs ? setTimeout(() => res.end(), maxMs) : undefined;
  cut?.unref();
  const done = () => {
    clearInterval(beat);
    if (cut) clearTimeout(cut);
    s.subscribers.delete(send);
    s.sockets.delete(res);
  };
  ctx.req.on('close', done);
  res.on('close', done);
}
