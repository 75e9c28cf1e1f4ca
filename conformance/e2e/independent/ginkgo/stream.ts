// The public status stream: one sequence for the whole service, named events, `retry: 3000`, and a ring of
// the last `keep` messages (1,000 by default). A resumption older than the ring starts at its oldest message.
// Messages carry no tenant data (the stream is public): the connection id and its state only.
import type { ServerResponse } from 'node:http';
import type { Call } from './http-kit.ts';
import { intParam } from './validation.ts';

interface Message {
  id: number;
  event: string;
  data: string;
}

export class StreamHub {
  seq = 0;
  keep: number;
  /** Without a cursor: replay the kept ring (true) or only live messages (false, default). */
  fromStart = false;
  ring: Message[] = [];
  clients = new Set<ServerResponse>();
  timers = new Set<NodeJS.Timeout>();

  constructor(keep: number) {
    this.keep = keep;
  }

  publish(event: string, payload: Record<string, unknown>): void {
    this.seq += 1;
    const msg = { id: this.seq, event, data: JSON.stringify({ seq: this.seq, type: event, ...payload }) };
    this.ring.push(msg);
    if (this.ring.length > this.keep) this.ring.splice(0, this.ring.length - this.keep);
    for (const res of this.clients) res.write(frame(msg));
  }

  /** GET /api/public/v1/stream: Last-Event-ID (what a reconnecting client last read) wins over ?cursor. */
  open(call: Call): void {
    const cursor = intParam('query.cursor', call.query.get('cursor'), 0);
    const rawHeader = call.req.headers['last-event-id'];
    const lastId = intParam('header.last-event-id', Array.isArray(rawHeader) ? rawHeader[0] : rawHeader, 0);
    const after = lastId ?? cursor ?? (this.fromStart ? 0 : undefined);
    const res = call.res;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'x-request-id': call.requestId,
    });
    res.write('retry: 3000\n\n');
    if (after !== undefined) for (const m of this.ring) if (m.id > after) res.write(frame(m));
    this.clients.add(res);
    const ping = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
    ping.unref();
    this.timers.add(ping);
    const done = () => {
      clearInterval(ping);
      this.timers.delete(ping);
      this.clients.delete(res);
    };
    res.on('close', done);
    call.req.on('close', done);
  }

  close(): void {
    for (const t of this.timers) clearInterval(t);
    for (const res of this.clients) res.destroy();
    this.clients.clear();
  }
}

function frame(m: Message): string {
  return `id: ${m.id}\nevent: ${m.event}\ndata: ${m.data}\n\n`;
}
