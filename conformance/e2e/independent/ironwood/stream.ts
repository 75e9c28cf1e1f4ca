// The public status stream of ironwood: one consecutive sequence (1, 2, …) for all tenants, kept in memory,
// carrying no tenant data (the stream is public). Resumption: Last-Event-ID wins over ?cursor when both
// are sent (the browser EventSource reconnect header is the more recent statement of the client).
import type { ServerResponse } from 'node:http';
import { ApiError, type Call } from './http-util.ts';
import { nonNegativeInt } from './validate.ts';

export interface StreamMessage {
  seq: number;
  type: string;
  data: Record<string, unknown>;
}

export class StatusStream {
  messages: StreamMessage[] = [];
  clients = new Set<ServerResponse>();
  heartbeat: NodeJS.Timeout;

  constructor() {
    this.heartbeat = setInterval(() => {
      for (const c of this.clients) c.write(': keep-alive\n\n');
    }, 15_000);
    this.heartbeat.unref();
  }

  publish(type: string, data: Record<string, unknown>): void {
    const msg = { seq: this.messages.length + 1, type, data: { ...data, at: new Date().toISOString() } };
    this.messages.push(msg);
    for (const c of this.clients) c.write(frame(msg));
  }

  /** Validates the resumption point before any byte is written, so a refusal is a JSON envelope. */
  startAfter(call: Call): number {
    const header = call.headers['last-event-id'];
    const cursor = nonNegativeInt(call.url.searchParams.get('cursor'), 'cursor');
    if (header !== undefined && header.trim() !== '') {
      const n = nonNegativeInt(header.trim(), 'Last-Event-ID');
      if (n === undefined) throw new ApiError('invalid_request', 'Last-Event-ID is invalid.');
      return n;
    }
    return cursor ?? this.messages.length;
  }

  open(call: Call, after: number): void {
    const res = call.res;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-ironwood-request-id': call.requestId,
      'x-accel-buffering': 'no',
    });
    res.write('retry: 2000\n\n');
    for (const m of this.messages) if (m.seq > after) res.write(frame(m));
    this.clients.add(res);
    const drop = () => this.clients.delete(res);
    res.on('close', drop);
    call.req.on('close', drop);
  }

  close(): void {
    clearInterval(this.heartbeat);
    for (const c of this.clients) c.end();
    this.clients.clear();
  }
}

function frame(m: StreamMessage): string {
  return `id: ${m.seq}\nevent: ${m.type}\ndata: ${JSON.stringify({ sequence: m.seq, type: m.type, ...m.data })}\n\n`;
}
