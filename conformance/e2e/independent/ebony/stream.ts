// The status stream of ebony: a journal of numbered messages (1, 2, 3, …) served as Server-Sent Events, resumed
// after Last-Event-ID or ?cursor (the last number read); without either, the whole journal from message 1.
import type { ServerResponse } from 'node:http';
import { ApiError, type Call, nowIso } from './http.ts';

export interface StreamMessage {
  seq: number;
  event: string;
  data: Record<string, unknown>;
}

export class StatusStream {
  private readonly journal: StreamMessage[] = [];
  private readonly listeners = new Set<ServerResponse>();
  private readonly heartbeat: NodeJS.Timeout;

  constructor() {
    this.heartbeat = setInterval(() => {
      for (const res of this.listeners) res.write(`: keepalive ${nowIso()}\n\n`);
    }, 15_000);
    this.heartbeat.unref();
  }

  publish(event: string, data: Record<string, unknown>): void {
    const m = { seq: this.journal.length + 1, event, data: { ...data, at: nowIso() } };
    this.journal.push(m);
    for (const res of this.listeners) res.write(frame(m));
  }

  /** GET /stream: validates the resume point (400 in the envelope), then streams. */
  serve(call: Call): void {
    const header = call.req.headers['last-event-id'];
    const fromHeader = Array.isArray(header) ? header[0] : header;
    const fromQuery = call.url.searchParams.get('cursor');
    const after =
      fromHeader !== undefined && fromHeader !== ''
        ? position(fromHeader, 'Last-Event-ID')
        : fromQuery !== null
          ? position(fromQuery, 'cursor')
          : 0;
    const res = call.res;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write('retry: 3000\n\n');
    for (const m of this.journal.slice(after)) res.write(frame(m));
    this.listeners.add(res);
    const drop = () => this.listeners.delete(res);
    call.req.on('close', drop);
    res.on('close', drop);
  }

  close(): void {
    clearInterval(this.heartbeat);
    for (const res of this.listeners) res.end();
    this.listeners.clear();
  }
}

function position(v: string, name: string): number {
  if (!/^\d{1,15}$/.test(v.trim())) {
    throw new ApiError('invalid_request', `${name} must be an integer of at least 0.`, name);
  }
  return Number(v.trim());
}

function frame(m: StreamMessage): string {
  return `id: ${m.seq}\nevent: ${m.event}\ndata: ${JSON.stringify({ seq: m.seq, type: m.event, ...m.data })}\n\n`;
}
