// The status stream. One JSON object per message, an `event:` line naming its type and an `id:` line with
// its consecutive number. Two sequences: the public one (no tenant data: ids and states only) and one per
// tenant for a caller who signs in (full payload). Last-Event-ID wins over ?cursor, the way a browser's
// EventSource reconnects to its original URL with the header added.
import type { ServerResponse } from 'node:http';
import { isoNow } from './http-util.ts';

interface Message {
  seq: number;
  event: string;
  data: Record<string, unknown>;
}

interface Channel {
  messages: Message[];
  listeners: Set<ServerResponse>;
}

/** maxStreamMs: the gateway ends every stream after this long (0: never); clients resume by Last-Event-ID. */
export function createStreamHub(maxStreamMs = 0) {
  const channels = new Map<string, Channel>();

  function channel(name: string): Channel {
    let c = channels.get(name);
    if (!c) {
      c = { messages: [], listeners: new Set() };
      channels.set(name, c);
    }
    return c;
  }

  function frame(m: Message): string {
    return `id: ${m.seq}\nevent: ${m.event}\ndata: ${JSON.stringify({ sequence: m.seq, type: m.event, ...m.data })}\n\n`;
  }

  function append(name: string, event: string, data: Record<string, unknown>): void {
    const c = channel(name);
    const m = { seq: c.messages.length + 1, event, data: { ...data, occurredAt: isoNow() } };
    c.messages.push(m);
    for (const res of c.listeners) res.write(frame(m));
  }

  /** Publishes a connection's change: the public message carries no tenant data. */
  function publish(tenant: string, event: string, connection: Record<string, unknown>): void {
    append('public', event, {
      connectionId: connection.id,
      connectorId: connection.connectorId,
      environment: connection.environment,
      state: connection.state,
    });
    append(`tenant:${tenant}`, event, { tenant, connection });
  }

  /** Serves one subscriber from `after` (the last number read) onward, then live. */
  function subscribe(res: ServerResponse, name: string, after: number, headers: Record<string, string>): void {
    const c = channel(name);
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
      ...headers,
    });
    res.write(': yew status stream\nretry: 3000\n\n');
    for (const m of c.messages) if (m.seq > after) res.write(frame(m));
    c.listeners.add(res);
    const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
    heartbeat.unref();
    if (maxStreamMs > 0) setTimeout(() => res.end(), maxStreamMs).unref();
    res.on('close', () => {
      clearInterval(heartbeat);
      c.listeners.delete(res);
    });
  }

  function closeAll(): void {
    for (const c of channels.values()) for (const res of c.listeners) res.end();
  }

  return { publish, subscribe, closeAll };
}

export type StreamHub = ReturnType<typeof createStreamHub>;
