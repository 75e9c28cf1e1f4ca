// The public status stream, shaped like a Kubernetes watch: every message is an event of type ADDED or
// MODIFIED carrying the object's id, state and resourceVersion (no tenant data: the stream is public).
// One sequence for the whole service; every message is retained, so resumption never has a gap.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from './http-kit.ts';

interface Message {
  seq: number;
  event: string;
  data: string;
}

export class StreamHub {
  private readonly messages: Message[] = [];
  private readonly live = new Set<ServerResponse>();
  private readonly heartbeatMs: number;

  constructor(heartbeatMs = 15000) {
    this.heartbeatMs = heartbeatMs;
  }

  publish(event: string, payload: Record<string, unknown>): void {
    const seq = this.messages.length + 1;
    const msg = { seq, event, data: JSON.stringify({ sequence: seq, ...payload }) };
    this.messages.push(msg);
    for (const res of this.live) res.write(frame(msg));
  }

  /** The resume point: ?cursor wins over Last-Event-ID; both must be whole numbers of at least 0. */
  static resumeFrom(req: IncomingMessage, query: URLSearchParams): number | undefined {
    const cursor = query.get('cursor');
    if (cursor !== null) {
      if (!/^\d{1,15}$/.test(cursor))
        throw new ApiError('invalid_request', 'invalid cursor', 'cursor must be an integer of at least 0');
      return Number(cursor);
    }
    const last = req.headers['last-event-id'];
    if (typeof last === 'string' && last.trim() !== '') {
      if (!/^\d{1,15}$/.test(last.trim()))
        throw new ApiError('invalid_request', 'invalid Last-Event-ID', 'Last-Event-ID must be the last number read');
      return Number(last.trim());
    }
    return undefined;
  }

  open(res: ServerResponse, from: number | undefined, headers: Record<string, string>): void {
    res.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
    });
    res.write('retry: 2000\n\n');
    if (from !== undefined) for (const m of this.messages.slice(from)) res.write(frame(m));
    this.live.add(res);
    const beat = setInterval(() => res.write(': keep-alive\n\n'), this.heartbeatMs);
    res.on('close', () => {
      clearInterval(beat);
      this.live.delete(res);
    });
  }

  close(): void {
    for (const res of this.live) res.end();
    this.live.clear();
  }
}

function frame(m: Message): string {
  return `id: ${m.seq}\nevent: ${m.event}\ndata: ${m.data}\n\n`;
}
