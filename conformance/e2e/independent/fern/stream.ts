// The public status stream: one numbered sequence (1, 2, ...) for the whole service, kept in memory
// (last 10,000), served as SSE. Messages carry no tenant data (the stream is public): kind
// `connection.requested` / `connection.ready`, payload {seq, kind, connectionId, connectorId,
// environment, state, emittedAt}, lines ended by CRLF (sse-starlette's default). `?cursor` wins over Last-Event-ID; neither: live messages only.
import type { Ctx } from './http-util.ts';
import { ApiError, isoNow } from './http-util.ts';

export interface StreamMessage {
  seq: number;
  kind: string;
  payload: Record<string, unknown>;
}

export class Stream {
  backlog: StreamMessage[] = [];
  seq = 0;
  listeners = new Set<(m: StreamMessage) => void>();
  /** Line separator: CRLF as sse-starlette writes it (FERN_SSE_LF=1: LF). */
  eol = '\r\n';
  /** FERN_SSE_PRETTY=1: the JSON payload indented, over several `data:` lines. */
  pretty = false;
  /** FERN_STREAM_FROM_START=1: a stream opened without a resume point starts with the retained backlog. */
  fromStart = false;

  publish(kind: string, payload: Record<string, unknown>) {
    this.seq += 1;
    const m = { seq: this.seq, kind, payload: { seq: this.seq, kind, ...payload, emittedAt: isoNow() } };
    this.backlog.push(m);
    if (this.backlog.length > 10_000) this.backlog.shift();
    for (const l of this.listeners) l(m);
  }

  /** GET /api/public/v1/stream: validates the resume point before the 200 (a bad one is a 400 envelope). */
  serve(ctx: Ctx, onClose: (stop: () => void) => void) {
    const cursor = ctx.query.get('cursor');
    const lastId = ctx.req.headers['last-event-id'];
    let from: number | undefined;
    if (cursor !== null) {
      if (!/^\d+$/.test(cursor)) {
        throw new ApiError('invalid_request', 'Request validation failed', 'query.cursor: must be an integer >= 0');
      }
      from = Number(cursor);
    } else if (typeof lastId === 'string' && lastId.trim() !== '') {
      if (!/^\d+$/.test(lastId.trim())) {
        throw new ApiError(
          'invalid_request',
          'Request validation failed',
          'header.Last-Event-ID: must be an integer >= 0',
        );
      }
      from = Number(lastId.trim());
    }
    const { res } = ctx;
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
      'X-Request-Id': ctx.requestId,
    });
    const n = this.eol;
    res.write(`retry: 2000${n}: fern status stream${n}${n}`);
    let sent = from ?? (this.fromStart ? 0 : this.seq);
    const write = (m: StreamMessage) => {
      if (m.seq <= sent) return;
      sent = m.seq;
      const data = JSON.stringify(m.payload, null, this.pretty ? 2 : undefined)
        .split('\n')
        .map((line) => `data: ${line}${n}`)
        .join('');
      res.write(`id: ${m.seq}${n}event: ${m.kind}${n}${data}${n}`);
    };
    for (const m of this.backlog) write(m);
    this.listeners.add(write);
    const beat = setInterval(() => res.write(`: ping - ${new Date().toISOString()}${n}${n}`), 15_000);
    const stop = () => {
      clearInterval(beat);
      this.listeners.delete(write);
    };
    ctx.req.on('close', stop);
    res.on('close', stop);
    onClose(() => {
      stop();
      res.end();
    });
  }
}
