// The status stream (SSE). Two channels: the public one (GET /stream without credentials) carries only
// connection id, environment and state; a caller sending a bearer token and tenant header gets the
// tenant's own channel with the whole connection. Each channel numbers its messages 1, 2, 3, ...
// Resumption: Last-Event-ID wins over ?cursor (the EventSource reconnect header is the standard one).
import type { ServerResponse } from 'node:http';
import type { Ctx } from './http-util.ts';
import { ApiError } from './http-util.ts';
import { isoTime, pyJson } from './util.ts';
import { queryInt } from './validate.ts';

interface Message {
  id: number;
  event: string;
  data: string;
}

interface Channel {
  messages: Message[];
  listeners: Set<(m: Message) => void>;
}

const RETAIN = 10_000;

export class StreamHub {
  channels = new Map<string, Channel>();
  open = new Set<ServerResponse>();
  heartbeatMs: number;
  multiline: boolean;
  constructor(heartbeatMs: number, multiline = false) {
    this.heartbeatMs = heartbeatMs;
    this.multiline = multiline;
  }

  private channel(name: string): Channel {
    let ch = this.channels.get(name);
    if (!ch) {
      ch = { messages: [], listeners: new Set() };
      this.channels.set(name, ch);
    }
    return ch;
  }

  private push(name: string, event: string, payload: Record<string, unknown>): void {
    const ch = this.channel(name);
    const id = (ch.messages.at(-1)?.id ?? 0) + 1;
    const body = { sequence: id, type: event, occurredAt: isoTime(), ...payload };
    const msg = { id, event, data: this.multiline ? JSON.stringify(body, null, 2) : pyJson(body) };
    ch.messages.push(msg);
    if (ch.messages.length > RETAIN) ch.messages.shift();
    for (const listener of ch.listeners) listener(msg);
  }

  /** Publishes a connection event on the public channel (no tenant data) and on the tenant's channel. */
  publish(tenant: string, event: string, connection: Record<string, unknown>, previousState?: string): void {
    const brief = { connectionId: connection.id, environment: connection.environment, state: connection.state };
    const prev = previousState ? { previousState } : {};
    this.push('public', event, { ...brief, ...prev });
    this.push(`tenant:${tenant}`, event, { tenant, ...prev, connection });
  }

  /** Parses the resume point: the last number read (0: nothing read yet, the whole retained backlog). */
  resumeFrom(ctx: Ctx): number | undefined {
    const header = ctx.req.headers['last-event-id'];
    const last = Array.isArray(header) ? header[0] : header;
    if (last !== undefined && last.trim() !== '') {
      if (!/^\d{1,4300}$/.test(last.trim()))
        throw new ApiError('invalid_request', 'header.Last-Event-ID: must be an integer of at least 0');
      return Number(last.trim());
    }
    return queryInt(ctx.query.get('cursor'), 'cursor', 0, Number.POSITIVE_INFINITY);
  }

  serve(ctx: Ctx, channelName: string, after: number | undefined): void {
    const res = ctx.res;
    const ch = this.channel(channelName);
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
      'x-request-id': ctx.requestId,
      'service-version': ctx.version,
    });
    res.flushHeaders();
    // sse-starlette framing: CRLF line ends, a `retry` field first, `: ping - <time>` comment heartbeats.
    const data = (text: string) =>
      text
        .split('\n')
        .map((line) => `data: ${line}\r\n`)
        .join('');
    const write = (m: Message) => res.write(`id: ${m.id}\r\nevent: ${m.event}\r\n${data(m.data)}\r\n`);
    res.write('retry: 3000\r\n\r\n');
    if (after !== undefined) for (const m of ch.messages) if (m.id > after) write(m);
    ch.listeners.add(write);
    this.open.add(res);
    const beat = setInterval(() => res.write(`: ping - ${isoTime().replace('T', ' ')}\r\n\r\n`), this.heartbeatMs);
    beat.unref();
    const stop = () => {
      clearInterval(beat);
      ch.listeners.delete(write);
      this.open.delete(res);
    };
    res.on('close', stop);
    ctx.req.on('close', stop);
  }

  closeAll(): void {
    for (const res of this.open) res.destroy();
    this.open.clear();
  }
}
