// One numbered status stream: the backlog the Durable Object keeps and its open SSE connections. Each tenant's
// object owns one; a public stream (no tenant header) carries the same status changes without tenant data.
import type { ServerResponse } from 'node:http';

export interface StreamMessage {
  id: number;
  event: string;
  data: Record<string, unknown>;
}

const MAX_BACKLOG = 10_000;

export function frame(m: StreamMessage): string {
  return `id: ${m.id}\nevent: ${m.event}\ndata: ${JSON.stringify({ seq: m.id, type: m.event, ...m.data })}\n\n`;
}

export class StreamHub {
  seq = 0;
  backlog: StreamMessage[] = [];
  listeners = new Set<ServerResponse>();

  publish(event: string, data: Record<string, unknown>): StreamMessage {
    this.seq += 1;
    const m: StreamMessage = { id: this.seq, event, data };
    this.backlog.push(m);
    if (this.backlog.length > MAX_BACKLOG) this.backlog.shift();
    const text = frame(m);
    for (const res of this.listeners) res.write(text);
    return m;
  }

  /** Sends the backlog after `after`, then every new message, exactly once each, in order. */
  attach(res: ServerResponse, after: number, heartbeatMs: number, maxMs = 0): void {
    res.statusCode = 200;
    res.setHeader('content-type', 'text/event-stream; charset=utf-8');
    res.setHeader('cache-control', 'no-cache, no-transform');
    res.setHeader('x-accel-buffering', 'no');
    res.flushHeaders();
    res.write('retry: 2000\n\n');
    // Synchronous: no message can be published between the backlog and the subscription.
    for (const m of this.backlog) if (m.id > after) res.write(frame(m));
    this.listeners.add(res);
    const beat = setInterval(() => res.write(': keep-alive\n\n'), heartbeatMs);
    const end = maxMs > 0 ? setTimeout(() => res.end(), maxMs) : undefined;
    res.on('close', () => {
      clearInterval(beat);
      clearTimeout(end);
      this.listeners.delete(res);
    });
  }

  closeAll(): void {
    for (const res of this.listeners) res.end();
    this.listeners.clear();
  }
}
