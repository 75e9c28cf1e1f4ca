// The status stream: a separate Lambda behind API Gateway, fed from an SQS fan-out. A change reaches
// the stream's log 0.5-1 s after it happened and is numbered then (consecutive, from 1, one public
// sequence that names no tenant). Messages carry `id:` and `data:` only. API Gateway's integration
// timeout ends every stream after 29 s; clients resume with Last-Event-ID (which wins) or ?cursor.
import type { ServerResponse } from 'node:http';
import type { Call } from './http-kit.ts';
import { ApiError, header } from './http-kit.ts';

export interface StreamOptions {
  /** Delay of the fan-out, [min, max] milliseconds. */
  fanoutMs: [number, number];
  /** The hard limit of one stream. */
  limitMs: number;
}

interface Message {
  seq: number;
  text: string;
}

export function createStream(options: StreamOptions) {
  const log: Message[] = [];
  const open = new Set<ServerResponse>();
  const timers = new Set<NodeJS.Timeout>();

  function frame(m: Message): string {
    return `id: ${m.seq}\ndata: ${m.text}\n\n`;
  }

  function append(payload: Record<string, unknown>): void {
    const seq = log.length + 1;
    const m = { seq, text: JSON.stringify({ seq, ...payload }) };
    log.push(m);
    for (const res of open) res.write(frame(m));
  }

  /** A change enters the queue; the stream sees it after the fan-out delay. */
  function publish(payload: Record<string, unknown>): void {
    const [min, max] = options.fanoutMs;
    const delay = min + Math.random() * (max - min);
    const t = setTimeout(() => {
      timers.delete(t);
      append(payload);
    }, delay);
    timers.add(t);
  }

  function resumePoint(call: Call): number | undefined {
    const fromHeader = header(call.req, 'last-event-id');
    const fromQuery = call.query.get('cursor');
    const value = fromHeader ?? fromQuery ?? undefined;
    if (value === undefined) return undefined;
    if (!/^\d+$/.test(value)) {
      const name = fromHeader !== undefined ? 'Last-Event-ID' : 'cursor';
      throw new ApiError('invalid_request', `The ${name} is invalid.`, `${name}: an integer, minimum 0`);
    }
    return Number(value);
  }

  /** GET /stream (public). */
  function serve(call: Call): void {
    const after = resumePoint(call);
    const res = call.res;
    res.writeHead(200, {
      ...call.headers,
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache',
      Connection: 'keep-alive',
    });
    res.flushHeaders();
    if (after !== undefined) {
      for (const m of log) if (m.seq > after) res.write(frame(m));
    }
    open.add(res);
    const limit = setTimeout(() => res.end(), options.limitMs);
    const done = () => {
      clearTimeout(limit);
      open.delete(res);
    };
    res.on('close', done);
    call.req.on('close', done);
  }

  function close(): void {
    for (const t of timers) clearTimeout(t);
    for (const res of open) res.end();
    open.clear();
  }

  return { publish, serve, close };
}

export type Stream = ReturnType<typeof createStream>;
