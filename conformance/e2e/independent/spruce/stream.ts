// The status stream: one public sequence fed by the connection change feed. Messages carry ids and
// states only (no tenant, no scope label), because the stream needs no authentication.
import type { ServerResponse } from 'node:http';
import { ApiError, type Ctx, commonHeaders } from './http-kit.ts';
import { azureTime, offsetTimes } from './util.ts';

interface Message {
  seq: number;
  kind: string;
  text: string;
}

export interface StatusStream {
  publish(kind: string, payload: Record<string, unknown>): void;
  serve(ctx: Ctx): void;
  closeAll(): void;
}

const RETAIN = 10_000;

/** Last-Event-ID wins over ?cursor: a reconnecting EventSource keeps its first URL (and old cursor). */
function resumeFrom(ctx: Ctx): number | undefined {
  const header = ctx.req.headers['last-event-id'];
  const fromHeader = typeof header === 'string' && header.trim() !== '' ? header.trim() : undefined;
  const fromQuery = ctx.url.searchParams.get('cursor') ?? undefined;
  const raw = fromHeader ?? fromQuery;
  const target = fromHeader !== undefined ? 'Last-Event-ID' : 'cursor';
  if (fromQuery !== undefined && !/^\d{1,15}$/.test(fromQuery)) {
    throw new ApiError('invalid_request', 'The cursor must be an integer of at least 0.', {
      target: 'cursor',
      hint: 'Send the last number read.',
    });
  }
  if (raw === undefined) return undefined;
  if (!/^\d{1,15}$/.test(raw)) {
    throw new ApiError('invalid_request', `${target} must be an integer of at least 0.`, {
      target,
      hint: 'Send the last number read.',
    });
  }
  return Number(raw);
}

export function createStatusStream(opts: {
  heartbeatMs: number;
  streamMaxMs: number;
  multiLineData: boolean;
  offsetTimes: boolean;
}): StatusStream {
  const messages: Message[] = [];
  const clients = new Set<ServerResponse>();
  let seq = 0;
  return {
    publish(kind, payload) {
      seq += 1;
      const json = JSON.stringify(
        { sequence: seq, kind, at: azureTime(), ...payload },
        null,
        opts.multiLineData ? 2 : undefined,
      );
      const data = (opts.offsetTimes ? offsetTimes(json) : json)
        .split('\n')
        .map((line) => `data: ${line}\n`)
        .join('');
      const m = { seq, kind, text: `id: ${seq}\nevent: ${kind}\n${data}\n` };
      messages.push(m);
      if (messages.length > RETAIN) messages.shift();
      // A reader gone between its close and the handler dropping it is skipped (a write after end throws).
      for (const res of clients) if (!res.writableEnded && !res.destroyed) res.write(m.text);
    },
    serve(ctx) {
      const after = resumeFrom(ctx);
      const res = ctx.res;
      res.writeHead(200, {
        ...commonHeaders(ctx),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        'x-accel-buffering': 'no',
        connection: 'keep-alive',
      });
      res.write('retry: 2000\n\n');
      // Backlog and subscription happen in one turn, so nothing is sent twice or lost in between.
      if (after !== undefined) for (const m of messages) if (m.seq > after) res.write(m.text);
      clients.add(res);
      const beat = setInterval(() => res.write(': keep-alive\n\n'), opts.heartbeatMs);
      beat.unref();
      const cut = opts.streamMaxMs > 0 ? setTimeout(() => res.end(), opts.streamMaxMs) : undefined;
      cut?.unref();
      res.on('close', () => {
        clearInterval(beat);
        if (cut) clearTimeout(cut);
        clients.delete(res);
      });
    },
    closeAll() {
      for (const res of clients) res.end();
      clients.clear();
    },
  };
}
