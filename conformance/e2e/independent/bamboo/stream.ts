// GET /stream: one public sequence (numbered from 1, no tenant data in it) as Server-Sent Events.
// Resumption: Last-Event-ID wins over ?cursor (a reconnecting EventSource sends the header, the query is
// then the stale first position); each is the last number read, so delivery starts at the next one.
// Kinds: connection.created, connection.live. A comment heartbeat every 15 s keeps proxies from closing it.
import type { Ctx } from './pipeline.ts';
import type { StreamEvent } from './state.ts';
import { type Call, invalid } from './wire.ts';

function position(raw: string | undefined, name: string): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d{1,15}$/.test(raw.trim()))
    throw invalid(`\`${name}\` must be an integer, minimum 0 (the last number read).`);
  return Number(raw.trim());
}

export function openStream(call: Call, ctx: Ctx): void {
  const header = call.req.headers['last-event-id'];
  const fromHeader = position(Array.isArray(header) ? header[0] : header, 'Last-Event-ID');
  const fromQuery = position(call.url.searchParams.get('cursor') ?? undefined, 'cursor');
  const after = fromHeader ?? fromQuery;
  const state = ctx.state;
  const res = call.res;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-request-id': call.requestId,
    'service-version': call.version,
  });
  res.write('retry: 2000\n: bamboo status stream\n\n');
  let last = after ?? state.events.length;
  const send = (e: StreamEvent) => {
    if (e.seq <= last) return;
    last = e.seq;
    res.write(
      `id: ${e.seq}\n${state.options.streamUnnamed ? '' : `event: ${e.kind}\n`}data: ${JSON.stringify({ seq: e.seq, kind: e.kind, ...e.data })}\n\n`,
    );
  };
  for (const e of state.events) send(e);
  state.listeners.add(send);
  const beat = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
  beat.unref();
  const max = state.options.streamMaxMs;
  const end = max > 0 ? setTimeout(() => res.end(), max) : undefined;
  end?.unref();
  const stop = () => {
    clearInterval(beat);
    if (end) clearTimeout(end);
    state.listeners.delete(send);
  };
  res.on('close', stop);
  call.req.on('close', stop);
}
