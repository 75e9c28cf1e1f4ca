// Status stream: one public sequence (no tenant data) and one sequence per tenant, each numbered 1, 2, 3...
// SSE framing: a `retry:` field first, multi-line `data:` (pretty JSON), a heartbeat comment every 2 s.
import type { Ctx } from './http-kit.ts';
import { HttpError } from './http-kit.ts';

interface Message {
  id: number;
  event: string;
  data: Record<string, unknown>;
}
interface Channel {
  messages: Message[];
  listeners: Set<(m: Message) => void>;
}

export function createStreams(heartbeatMs = 2000) {
  const channels = new Map<string, Channel>();
  const open = new Set<() => void>();

  function channel(name: string): Channel {
    let c = channels.get(name);
    if (!c) {
      c = { messages: [], listeners: new Set() };
      channels.set(name, c);
    }
    return c;
  }

  function publish(name: string, event: string, data: Record<string, unknown>): void {
    const c = channel(name);
    const m = { id: c.messages.length + 1, event, data };
    c.messages.push(m);
    for (const l of c.listeners) l(m);
  }

  // A decimal resume point: `cursor` query or Last-Event-ID header; Last-Event-ID wins when both are sent,
  // because it is what an EventSource sends on its own reconnection.
  function resumePoint(ctx: Ctx): number {
    const last = ctx.req.headers['last-event-id'];
    const lastText = Array.isArray(last) ? last[0] : last;
    const cursor = ctx.url.searchParams.getAll('cursor');
    if (cursor.length > 1) throw new HttpError(400, 'invalid_request', 'cursor may be sent once.');
    const pick = lastText !== undefined && lastText !== '' ? lastText : cursor[0];
    if (pick === undefined) return -1;
    if (!/^(0|[1-9][0-9]{0,15})$/.test(pick.trim())) {
      throw new HttpError(
        400,
        'invalid_request',
        'cursor and Last-Event-ID must be a whole number, minimum 0.',
        'Send the last number read, e.g. cursor=12.',
      );
    }
    return Number(pick.trim());
  }

  function frame(m: Message): string {
    const lines = JSON.stringify({ id: m.id, type: m.event, ...m.data }, null, 2).split('\n');
    return `id: ${m.id}\nevent: ${m.event}\n${lines.map((l) => `data: ${l}`).join('\n')}\n\n`;
  }

  function serve(ctx: Ctx, name: string): void {
    const after = resumePoint(ctx);
    const c = channel(name);
    ctx.res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-request-id': ctx.requestId,
      'x-accel-buffering': 'no',
      ...ctx.headers,
    });
    ctx.res.write(`retry: 3000\n: stream ${name === 'public' ? 'public' : 'tenant'} opened\n\n`);
    // Without a resume point a client gets what happens from now on; with one, everything after it.
    if (after >= 0) for (const m of c.messages) if (m.id > after) ctx.res.write(frame(m));
    const listener = (m: Message) => ctx.res.write(frame(m));
    c.listeners.add(listener);
    const beat = setInterval(() => ctx.res.write(': heartbeat\n\n'), heartbeatMs);
    const stop = () => {
      clearInterval(beat);
      c.listeners.delete(listener);
      open.delete(end);
    };
    const end = () => {
      stop();
      ctx.res.end();
    };
    open.add(end);
    ctx.req.on('close', stop);
  }

  function closeAll(): void {
    for (const end of [...open]) end();
  }

  return { publish, serve, closeAll };
}
export type Streams = ReturnType<typeof createStreams>;
