// The public status stream: one global journal of numbered messages, each a named SSE event per state
// (`connection.requested`, `connection.active`). Resumption: Last-Event-ID wins over ?cursor when both come.
import type { ServerResponse } from 'node:http';
import { type Exchange, header, Refusal } from './http-kit.ts';

export interface StreamMessage {
  id: number;
  event: string;
  data: Record<string, unknown>;
}

/** `rotateMs` > 0 ends each stream after that long (a gateway's idle cap); clients resume with Last-Event-ID. */
export function createStatusStream(heartbeatMs: number, rotateMs = 0) {
  const journal: StreamMessage[] = [];
  const listeners = new Set<(m: StreamMessage) => void>();
  const frame = (m: StreamMessage) => `id: ${m.id}\nevent: ${m.event}\ndata: ${JSON.stringify(m.data)}\n\n`;
  const open = new Set<ServerResponse>();

  const parsePosition = (raw: string, name: string): number => {
    if (!/^\d{1,15}$/.test(raw)) {
      throw new Refusal(
        'invalid_request',
        `Lens failed: ${name} must be an integer, minimum 0`,
        `${name}: ${raw.slice(0, 40)}`,
      );
    }
    return Number(raw);
  };

  return {
    publish(event: string, data: Record<string, unknown>): void {
      const m = { id: journal.length + 1, event, data: { sequence: journal.length + 1, ...data } };
      journal.push(m);
      for (const l of listeners) l(m);
    },
    /** Validates before anything is written, so a bad position gets the failure envelope. */
    serve(ex: Exchange): void {
      const last = header(ex.req, 'last-event-id');
      const cursor = ex.url.searchParams.get('cursor');
      const from =
        last !== undefined && last !== ''
          ? parsePosition(last.trim(), 'Last-Event-ID')
          : cursor !== null
            ? parsePosition(cursor, 'cursor')
            : 0;
      const res = ex.res;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
        'x-request-id': ex.requestId,
        'service-version': ex.version,
        'x-accel-buffering': 'no',
      });
      res.write(`retry: 2000\n: sequoia status stream, resuming after ${from}\n\n`);
      for (const m of journal.slice(from)) res.write(frame(m));
      const listener = (m: StreamMessage) => res.write(frame(m));
      listeners.add(listener);
      open.add(res);
      const beat = setInterval(() => !res.writableEnded && res.write(': heartbeat\n\n'), heartbeatMs);
      const rotate = rotateMs > 0 ? setTimeout(() => res.end(), rotateMs) : undefined;
      const end = () => {
        clearInterval(beat);
        clearTimeout(rotate);
        listeners.delete(listener);
        open.delete(res);
      };
      res.on('close', end);
      ex.req.on('close', end);
    },
    closeAll(): void {
      for (const r of open) r.destroy();
    },
  };
}

export type StatusStream = ReturnType<typeof createStatusStream>;
