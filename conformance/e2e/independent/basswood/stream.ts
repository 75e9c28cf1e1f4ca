// The status stream (Sinatra's `stream(:keep_open)`): one numbered channel per tenant for a caller with a
// valid access and tenant header, and a public channel carrying service notices only (no tenant's data).
// Messages are kept, so a resume by `cursor` or Last-Event-ID replays exactly those after the number read.
import { type Ctx, invalid } from './http.ts';
import { type Rec, rubyTime, type Store } from './state.ts';

function frame(store: Store, m: Rec): string {
  const event = store.options.streamPlainFrames ? '' : `event: ${m.event}\n`;
  return `id: ${m.sequence}\n${event}data: ${JSON.stringify(m)}\n\n`;
}

/** Appends a message to a channel and writes it to every open stream of that channel. */
export function publish(store: Store, channel: string, event: string, payload: Rec): void {
  let list = store.streams.get(channel);
  if (!list) {
    list = [];
    store.streams.set(channel, list);
  }
  // Serialized now, as the job rendering it would: a later change of the record never alters a sent message.
  const message = { sequence: list.length + 1, event, occurred_at: rubyTime(store), payload: structuredClone(payload) };
  list.push(message);
  for (const l of store.listeners) {
    if (l.channel === channel && message.sequence > l.after) {
      l.res.write(frame(store, message));
      l.after = message.sequence;
    }
  }
}

/** The number read last; none given is 0 (the whole backlog) or, from the live tail, the newest number. */
function cursorOf(ctx: Ctx, channel: string): number {
  const q = ctx.url.searchParams.get('cursor');
  const h = ctx.req.headers['last-event-id'];
  const raw = q ?? (Array.isArray(h) ? h[0] : h);
  if (raw === undefined || raw === null || raw === '') {
    return ctx.store.options.streamFromNow ? (ctx.store.streams.get(channel)?.length ?? 0) : 0;
  }
  if (!/^\d+$/.test(raw.trim())) throw invalid('cursor / Last-Event-ID must be an integer of at least 0');
  return Number(raw.trim());
}

export function openStream(ctx: Ctx): void {
  const channel = ctx.tenant || 'public';
  const after = cursorOf(ctx, channel);
  ctx.res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    'x-accel-buffering': 'no',
    'x-request-id': ctx.requestId,
    ...ctx.headers,
  });
  ctx.res.write('retry: 3000\n\n');
  const listener = { channel, res: ctx.res, after };
  for (const m of ctx.store.streams.get(channel) ?? []) {
    if (m.sequence > after) {
      ctx.res.write(frame(ctx.store, m));
      listener.after = m.sequence;
    }
  }
  ctx.store.listeners.add(listener);
  const beat = setInterval(() => ctx.res.write(': keep-alive\n\n'), 15_000);
  beat.unref();
  const cut =
    ctx.store.options.streamMaxMs > 0 ? setTimeout(() => ctx.res.end(), ctx.store.options.streamMaxMs) : undefined;
  cut?.unref();
  ctx.res.on('close', () => {
    clearInterval(beat);
    clearTimeout(cut);
    ctx.store.listeners.delete(listener);
  });
}

export function closeStreams(store: Store): void {
  for (const l of store.listeners) l.res.end();
  store.listeners.clear();
}
