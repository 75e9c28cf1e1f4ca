// GET /stream: Server-Sent Events, numbered per feed, resumable by Last-Event-ID (preferred) or ?cursor=.
import type { Feeds } from './feed.ts';
import { ApiError, CORRELATION_HEADER, type Ctx } from './http-util.ts';

const KEEP_ALIVE_MS = 15_000;

function resumePoint(ctx: Ctx): number {
  const header = ctx.req.headers['last-event-id'];
  const cursor = ctx.url.searchParams.getAll('cursor');
  if (cursor.length > 1) throw new ApiError('invalid_request', 'cursor given more than once');
  const parse = (raw: string, name: string): number => {
    if (!/^(0|[1-9][0-9]{0,15})$/.test(raw)) {
      throw new ApiError('invalid_request', `${name} must be a whole number >= 0`, {
        hint: 'send the last sequence number read',
      });
    }
    return Number(raw);
  };
  const c = cursor[0] === undefined ? 0 : parse(cursor[0], 'cursor');
  if (typeof header === 'string' && header.trim() !== '') {
    // The header is what EventSource sends on reconnect, so it is newer than a cursor in the URL.
    return parse(header.trim(), 'Last-Event-ID');
  }
  return c;
}

export function openStream(ctx: Ctx, feeds: Feeds, feed: string, live: Set<() => void>): void {
  const after = resumePoint(ctx);
  const res = ctx.res;
  res.writeHead(200, {
    'Content-Type': 'text/event-stream;charset=UTF-8',
    'Cache-Control': 'no-cache',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
    [CORRELATION_HEADER]: ctx.requestId,
    'Service-Version': ctx.version,
    ...ctx.headers,
  });
  res.write('retry:3000\n\n');
  const unsubscribe = feeds.subscribe(feed, after, (m) => {
    // Spring's ServerSentEvent encoding: no space after the colon.
    res.write(`id:${m.seq}\nevent:${m.event}\ndata:${m.data}\n\n`);
  });
  const timer = setInterval(() => res.write(':keep-alive\n\n'), KEEP_ALIVE_MS);
  const stop = (): void => {
    clearInterval(timer);
    unsubscribe();
    live.delete(stop);
    if (!res.writableEnded) res.end();
  };
  live.add(stop);
  ctx.req.on('close', stop);
  res.on('close', stop);
}
