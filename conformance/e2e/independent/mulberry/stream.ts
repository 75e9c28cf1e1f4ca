// The status stream: SSE with `id:` and JSON `data:` lines only (no `event:` names; the kind is the
// payload's `type`), a `: ping` comment every 10 s. Without credentials the public feed (service
// status); with a bearer token and tenant header the tenant's feed. Each feed numbers its messages
// 1, 2, 3 … and resumes after `?cursor=` (wins) or `Last-Event-ID`; without either it starts live.
import { authenticate } from './auth.ts';
import { baseHeaders, type Ctx, invalid } from './http.ts';
import { now, type State, type StreamMessage } from './state.ts';

export const HEARTBEAT_MS = 10_000;

function feed(state: State, key: string) {
  let f = state.feeds.get(key);
  if (!f) {
    f = { log: [], subs: new Set() };
    state.feeds.set(key, f);
  }
  return f;
}

/** Appends one message to a feed ('' = public) and hands tenant events to the webhook listeners. */
export function publish(state: State, tenant: string, type: string, data: Record<string, unknown>): void {
  const f = feed(state, tenant);
  const seq = f.log.length + 1;
  const msg = { seq, data: JSON.stringify({ type, seq, at: now(state), ...data }) };
  f.log.push(msg);
  for (const s of f.subs) s(msg);
  if (tenant !== '') for (const l of state.listeners) l(tenant, type, data);
}

function position(ctx: Ctx): number | undefined {
  const q = ctx.url.searchParams.get('cursor');
  const h = ctx.req.headers['last-event-id'];
  const raw = q ?? (Array.isArray(h) ? h[0] : h);
  if (raw === undefined || raw === null) return undefined;
  if (!/^\d{1,15}$/.test(raw.trim()))
    throw invalid('cursor must be an integer, minimum 0.', `cursor: ${raw}`, 'Send the last number read.');
  return Number(raw.trim());
}

/** One message; multiline: the JSON pretty-printed over several `data:` lines (same payload). */
const frame = (m: StreamMessage, multiline: boolean): string => {
  const body = multiline ? JSON.stringify(JSON.parse(m.data), null, 2) : m.data;
  return `id: ${m.seq}\n${body
    .split('\n')
    .map((l) => `data: ${l}`)
    .join('\n')}\n\n`;
};

export function serveStream(ctx: Ctx): void {
  const hasAuth = ctx.req.headers.authorization !== undefined || ctx.req.headers['x-service-tenant'] !== undefined;
  if (hasAuth) authenticate(ctx);
  const after = position(ctx);
  const f = feed(ctx.state, ctx.auth?.tenant ?? '');
  const res = ctx.res;
  const send = (m: StreamMessage) => res.write(frame(m, ctx.state.opts.streamMultiline));
  // Subscribe before anything is written, so no message published meanwhile is lost.
  f.subs.add(send);
  res.writeHead(200, {
    ...baseHeaders(ctx),
    'Content-Type': 'text/event-stream; charset=utf-8',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  res.write(': ping\n\n');
  // Default: a stream without a position starts live; streamReplayAll: it starts at message 1.
  const from = after ?? (ctx.state.opts.streamReplayAll ? 0 : undefined);
  if (from !== undefined) for (const m of f.log.slice(from)) send(m);
  const ping = setInterval(() => !res.writableEnded && res.write(': ping\n\n'), HEARTBEAT_MS);
  const stop = () => {
    clearInterval(ping);
    f.subs.delete(send);
  };
  ctx.req.on('close', stop);
  res.on('close', stop);
  // streamMaxMs: the server ends every stream after this long (a proxy's write timeout); clients resume.
  if (ctx.state.opts.streamMaxMs > 0) {
    const end = setTimeout(() => res.end(), ctx.state.opts.streamMaxMs);
    res.on('close', () => clearTimeout(end));
  }
}
