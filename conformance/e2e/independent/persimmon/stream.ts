// The status stream: one numbered log of messages (a conduit over a TChan in the original), replayed from
// the client's cursor or Last-Event-ID, then live. Numbers start at 1, so cursor 0 means "from the start".
import type { ServerResponse } from 'node:http';
import { type Ctx, fail, type Rec, utcNow } from './http.ts';

interface Message {
  seq: number;
  event: string;
  data: string;
}

export class StatusStream {
  private readonly log: Message[] = [];
  private readonly clients = new Set<ServerResponse>();

  /** Appends a message and writes it to every open stream. */
  publish(event: string, payload: Rec): void {
    const seq = this.log.length + 1;
    const msg = { seq, event, data: JSON.stringify({ seq, kind: event, at: utcNow(), ...payload }) };
    this.log.push(msg);
    for (const res of this.clients) write(res, msg);
  }

  open(ctx: Ctx): void {
    const after = cursorOf(ctx);
    const { res } = ctx;
    res.writeHead(200, {
      ...ctx.headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write('retry: 3000\n\n');
    // Without a position the stream starts at the present: the client has read nothing it must resume.
    if (after !== undefined) for (const m of this.log.slice(after)) write(res, m);
    this.clients.add(res);
    const beat = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
    const done = () => {
      clearInterval(beat);
      this.clients.delete(res);
    };
    res.on('close', done);
    ctx.req.on('close', done);
  }

  closeAll(): void {
    for (const res of this.clients) res.end();
    this.clients.clear();
  }
}

function write(res: ServerResponse, m: Message): void {
  res.write(`id: ${m.seq}\nevent: ${m.event}\ndata: ${m.data}\n\n`);
}

/** The query parameter wins over the header; either must be a whole number of at least 0. */
function cursorOf(ctx: Ctx): number | undefined {
  const q = ctx.url.searchParams.get('cursor');
  const h = ctx.req.headers['last-event-id'];
  const raw = q ?? (Array.isArray(h) ? h[0] : h);
  if (raw === undefined || raw === null) return undefined;
  if (!/^\d+$/.test(raw.trim())) {
    throw fail.badRequest(q !== null ? 'cursor must be an integer of at least 0' : 'Last-Event-ID must be a number');
  }
  return Number(raw.trim());
}
