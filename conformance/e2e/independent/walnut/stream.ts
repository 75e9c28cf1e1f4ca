// The status stream, Channels-style: one public group ("status") every consumer joins; each message is
// numbered consecutively (`id:`), named (`event:`) and kept, so a consumer resumes after the last
// number read (Last-Event-ID wins over ?cursor when both are sent). No tenant data goes on the stream:
// it is public, so messages carry ids and states only.
import type { ServerResponse } from 'node:http';
import { type Clock, type Ctx, fail } from './core.ts';

interface Message {
  seq: number;
  event: string;
  data: Record<string, unknown>;
}

export class StatusStream {
  backlog: Message[] = [];
  consumers = new Set<ServerResponse>();
  heartbeatMs: number;
  maxMs: number | undefined;

  time: Clock;

  constructor(time: Clock, heartbeatMs = 15000, maxMs?: number) {
    this.time = time;
    this.heartbeatMs = heartbeatMs;
    this.maxMs = maxMs;
  }

  publish(event: string, data: Record<string, unknown>): void {
    const msg: Message = { seq: this.backlog.length + 1, event, data: { ...data, at: this.time() } };
    this.backlog.push(msg);
    for (const res of this.consumers) res.write(frame(msg));
  }

  /** Validates the resumption point before any byte is written, so a bad one gets a JSON 400. */
  resumeFrom(ctx: Ctx): number {
    const header = ctx.req.headers['last-event-id'];
    const raw = typeof header === 'string' && header.trim() !== '' ? header.trim() : ctx.query.get('cursor');
    if (raw === null) return this.backlog.length;
    if (!/^\d{1,12}$/.test(raw)) fail('invalid_request', 'cursor: A valid integer of at least 0 is required.');
    return Number(raw);
  }

  open(ctx: Ctx, after: number): void {
    const { res } = ctx;
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
      'X-Request-Id': ctx.requestId,
    });
    res.write(`retry: 3000\n: walnut status stream, resuming after ${after}\n\n`);
    // Backlog and subscription in one synchronous step: nothing can be published in between.
    for (const msg of this.backlog) if (msg.seq > after) res.write(frame(msg));
    this.consumers.add(res);
    // A stream ended by maxMs or closeAll is closed a little later: a beat in between must not write after the end.
    const beat = setInterval(() => !res.writableEnded && res.write(': keep-alive\n\n'), this.heartbeatMs);
    const end = this.maxMs === undefined ? undefined : setTimeout(() => res.end(), this.maxMs);
    const done = () => {
      clearInterval(beat);
      clearTimeout(end);
      this.consumers.delete(res);
    };
    res.on('close', done);
    ctx.req.on('close', done);
  }

  closeAll(): void {
    for (const res of this.consumers) res.end();
    this.consumers.clear();
  }
}

function frame(m: Message): string {
  return `id: ${m.seq}\nevent: ${m.event}\ndata: ${JSON.stringify({ sequence: m.seq, event: m.event, ...m.data })}\n\n`;
}
