// The status stream: events are KV entries ['events', seq]; a KV watch wakes each open stream, which
// sends everything after its last number. Last-Event-ID wins over ?cursor when both are sent.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from './http.ts';
import type { App } from './state.ts';

export interface StreamEvent {
  seq: number;
  kind: string;
  at: string;
  data: Record<string, unknown>;
}

export function publish(app: App, kind: string, data: Record<string, unknown>): StreamEvent {
  const seq = app.kv.sum(['events-seq'], 1);
  const ev = { seq, kind, at: new Date().toISOString(), data };
  app.kv.set(['events', seq], ev);
  return ev;
}

function parseResume(req: IncomingMessage, url: URL, app: App): number {
  const header = req.headers['last-event-id'];
  const raw = typeof header === 'string' && header.trim() !== '' ? header.trim() : url.searchParams.get('cursor');
  if (raw === null) return app.opts.streamFromStart ? 0 : (app.kv.get<number>(['events-seq'])?.value ?? 0);
  if (!/^\d+$/.test(raw)) throw new ApiError('invalid_request', 'cursor / Last-Event-ID must be an integer >= 0.');
  return Number(raw);
}

export function openStream(
  app: App,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  closers: Set<() => void>,
): void {
  let last = parseResume(req, url, app);
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.write(': tupelo status stream\nretry: 2000\n\n');
  const flush = () => {
    const head = app.kv.get<number>(['events-seq'])?.value ?? 0;
    while (last < head) {
      const ev = app.kv.get<StreamEvent>(['events', last + 1])?.value;
      last += 1;
      if (!ev) continue;
      res.write(
        `id: ${ev.seq}\nevent: ${ev.kind}\ndata: ${JSON.stringify({ seq: ev.seq, kind: ev.kind, at: ev.at, ...ev.data })}\n\n`,
      );
    }
  };
  const stop = app.kv.watch((k) => {
    if (k.startsWith('sevents\u0000')) flush();
  });
  const beat = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
  const close = () => {
    stop();
    clearInterval(beat);
    closers.delete(close);
    res.end();
  };
  closers.add(close);
  req.on('close', close);
  flush();
}
