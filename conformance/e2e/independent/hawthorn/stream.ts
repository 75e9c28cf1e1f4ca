// The status stream: one public Mutiny Multi of status messages, numbered 1, 2, 3 … across the service.
// Each SSE frame carries `id: <number>`, `event: <kind>` and a JSON payload without tenant data (the stream
// is public). Resumption: Last-Event-ID wins over ?cursor (the header is what a reconnecting EventSource
// sends); both mean "last number read", so the backlog after it is replayed, then the live messages.
// Without either the subscriber gets live messages only. Keep-alive: an SSE comment every keepAliveMs.
import type { ServerResponse } from 'node:http';
import { ApiError, type Ctx, nowIso } from './util.ts';

export interface StatusMessage {
  seq: number;
  kind: string;
  payload: Record<string, unknown>;
}

const RETAINED = 20_000;

export class StatusStream {
  private log: StatusMessage[] = [];
  private seq = 0;
  private subscribers = new Set<(m: StatusMessage) => void>();
  private keepAliveMs: number;
  /** Another legal choice: end every stream after this long (a proxy's idle cap); clients resume. */
  private maxMs: number | undefined;

  constructor(keepAliveMs: number, maxMs?: number) {
    this.keepAliveMs = keepAliveMs;
    this.maxMs = maxMs;
  }

  emit(kind: string, payload: Record<string, unknown>): void {
    this.seq += 1;
    const m = { seq: this.seq, kind, payload: { ...payload, sequence: this.seq, emittedAt: nowIso() } };
    this.log.push(m);
    if (this.log.length > RETAINED) this.log.shift();
    for (const s of this.subscribers) s(m);
  }

  private resumeFrom(ctx: Ctx): number | undefined {
    const header = ctx.req.headers['last-event-id'];
    const lastId = Array.isArray(header) ? header[0] : header;
    const cursor = ctx.url.searchParams.get('cursor');
    if (lastId !== undefined && lastId.trim() !== '') {
      if (!/^\d{1,15}$/.test(lastId.trim()))
        throw new ApiError(
          400,
          'invalid_request',
          'Request incomplete or unsuitable',
          'Last-Event-ID: must be a message number (integer, minimum 0)',
        );
      return Number(lastId.trim());
    }
    if (cursor !== null) {
      if (!/^\d{1,15}$/.test(cursor))
        throw new ApiError(
          400,
          'invalid_request',
          'Request incomplete or unsuitable',
          'cursor: must be an integer, minimum 0',
        );
      return Number(cursor);
    }
    return undefined;
  }

  /** GET /stream: validates the resumption point first (a refusal is a JSON envelope), then streams. */
  open(ctx: Ctx): void {
    const after = this.resumeFrom(ctx);
    const res: ServerResponse = ctx.res;
    res.writeHead(200, {
      'content-type': 'text/event-stream;charset=UTF-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-request-id': ctx.requestId,
      'service-version': ctx.version,
      'x-accel-buffering': 'no',
    });
    res.write(`: hawthorn status stream, version ${ctx.version}, request ${ctx.requestId}\nretry: 2000\n\n`);
    let last = after ?? this.seq;
    const send = (m: StatusMessage) => {
      if (m.seq <= last) return;
      last = m.seq;
      res.write(`id: ${m.seq}\nevent: ${m.kind}\ndata: ${JSON.stringify({ kind: m.kind, ...m.payload })}\n\n`);
    };
    if (after !== undefined) for (const m of this.log) send(m);
    this.subscribers.add(send);
    const ping = setInterval(() => res.write(`: keep-alive ${nowIso()}\n\n`), this.keepAliveMs);
    const cap = this.maxMs === undefined ? undefined : setTimeout(() => res.end(), this.maxMs);
    const stop = () => {
      clearInterval(ping);
      clearTimeout(cap);
      this.subscribers.delete(send);
    };
    res.on('close', stop);
    res.on('error', stop);
  }
}
