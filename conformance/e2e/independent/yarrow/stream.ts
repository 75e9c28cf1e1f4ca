// Mercure-style status stream: each tenant's private topic with its own consecutive numbers (the hub's
// "private updates", read with a bearer token and the tenant header), and the anonymous public topic,
// which carries no tenant's data (only the catalog's announcements, none in this sandbox).
import type { Ctx } from './http-util.ts';
import { ApiError, baseHeaders } from './http-util.ts';

export interface StreamMessage {
  id: number;
  event: string;
  data: Record<string, unknown>;
}

type Listener = (m: StreamMessage) => void;

export function createHub() {
  const topics = new Map<string, StreamMessage[]>();
  const listeners = new Map<string, Set<Listener>>();
  return {
    publish(topic: string, event: string, data: Record<string, unknown>): void {
      const list = topics.get(topic) ?? [];
      topics.set(topic, list);
      const m = { id: list.length + 1, event, data: { sequence: list.length + 1, ...data } };
      list.push(m);
      for (const l of listeners.get(topic) ?? []) l(m);
    },
    /** Serves the stream: the messages after the cursor first, then live ones, never a gap or repeat. */
    serve(ctx: Ctx, topic: string): void {
      const q = ctx.query.get('cursor');
      const h = ctx.req.headers['last-event-id'];
      let after = 0;
      if (q !== null) {
        if (!/^\d{1,15}$/.test(q))
          throw new ApiError('invalid_request', 'cursor: This value should be an integer of 0 or more.');
        after = Number(q);
      } else if (typeof h === 'string' && h !== '') {
        if (!/^\d{1,15}$/.test(h.trim()))
          throw new ApiError('invalid_request', 'Last-Event-ID: This value should be an integer of 0 or more.');
        after = Number(h.trim());
      }
      const res = ctx.res;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, private',
        'x-accel-buffering': 'no',
        ...baseHeaders(ctx),
      });
      const write = (m: StreamMessage) => {
        res.write(`id: ${m.id}\nevent: ${m.event}\ndata: ${JSON.stringify(m.data)}\n\n`);
      };
      res.write(`: yarrow hub, topic ${topic === 'public' ? 'public' : 'tenant'}\nretry: 2000\n\n`);
      for (const m of topics.get(topic) ?? []) if (m.id > after) write(m);
      const set = listeners.get(topic) ?? new Set<Listener>();
      listeners.set(topic, set);
      const l: Listener = (m) => write(m);
      set.add(l);
      const beat = setInterval(() => res.write(': heartbeat\n\n'), 15_000);
      const stop = () => {
        clearInterval(beat);
        set.delete(l);
      };
      res.on('close', stop);
      ctx.req.on('close', stop);
    },
  };
}
export type Hub = ReturnType<typeof createHub>;
