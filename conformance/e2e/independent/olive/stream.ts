// The status stream, written by hand over an http.Flusher: one public sequence (no tenant data: the
// endpoint is unauthenticated), numbered from 1. Resumption: the later of ?cursor and Last-Event-ID.
import type { ServerResponse } from 'node:http';
import type { Ctx } from './mux.ts';
import type { State } from './state.ts';
import { invalid, marshal, now } from './util.ts';

export interface StreamMessage {
  seq: number;
  event: string;
  data: Record<string, unknown>;
}

export function createHub(state: State) {
  const backlog: StreamMessage[] = [];
  const listeners = new Set<(m: StreamMessage) => void>();
  const webhookSinks: ((tenant: string, event: string, data: Record<string, unknown>) => void)[] = [];
  return {
    backlog,
    listeners,
    /** Publishes a change: the stream gets the public part, webhooks the tenant's part. */
    publish(
      tenant: string,
      event: string,
      publicData: Record<string, unknown>,
      tenantData: Record<string, unknown>,
    ): void {
      const m: StreamMessage = {
        seq: (state.options.streamSeqStart ?? 1) + backlog.length,
        event,
        data: { ...publicData, at: now(state.options.utcOffsetMinutes).text },
      };
      backlog.push(m);
      for (const l of listeners) l(m);
      for (const sink of webhookSinks) sink(tenant, event, tenantData);
    },
    onWebhookEvent(sink: (tenant: string, event: string, data: Record<string, unknown>) => void): void {
      webhookSinks.push(sink);
    },
  };
}

export type Hub = ReturnType<typeof createHub>;

function position(raw: string | null | undefined, name: string): number | undefined {
  if (raw === null || raw === undefined) return undefined;
  const v = raw.trim();
  if (!/^\d{1,15}$/.test(v)) throw invalid(`${name}: must be an integer of at least 0`);
  return Number(v);
}

const frame = (m: StreamMessage, sp: string, esc: boolean, ev: boolean): string =>
  `id:${sp}${m.seq}\n${ev ? `event:${sp}${m.event}\n` : ''}data:${sp}${marshal({ seq: m.seq, type: m.event, ...m.data }, esc)}\n\n`;

export function createStream(state: State, hub: Hub, open: Set<ServerResponse>) {
  return async function stream(ctx: Ctx): Promise<undefined> {
    const header = ctx.req.headers['last-event-id'];
    const fromCursor = position(ctx.query.get('cursor'), 'cursor');
    const fromHeader = position(typeof header === 'string' ? header : undefined, 'Last-Event-ID');
    const after = Math.max(fromCursor ?? 0, fromHeader ?? 0);
    const res = ctx.res;
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    if (ctx.req.method === 'HEAD') {
      res.end();
      return undefined;
    }
    open.add(res);
    res.write(`retry:${state.options.sseCompact ? '' : ' '}2000\n: olive stream ${ctx.rid}, after ${after}\n\n`);
    let sent = after;
    const send = (m: StreamMessage) => {
      if (m.seq <= sent) return;
      sent = m.seq;
      res.write(
        frame(
          m,
          state.options.sseCompact ? '' : ' ',
          state.options.goHtmlEscape === true,
          !state.options.sseNoEventField,
        ),
      );
    };
    for (const m of hub.backlog) if (m.seq > after) send(m);
    hub.listeners.add(send);
    const beat = setInterval(() => res.write(': keep-alive\n\n'), state.options.heartbeatMs);
    // http.Server's WriteTimeout ends a long answer: the client resumes with Last-Event-ID.
    const cut = state.options.streamMaxMs ? setTimeout(() => res.end(), state.options.streamMaxMs) : undefined;
    const done = () => {
      clearInterval(beat);
      if (cut) clearTimeout(cut);
      hub.listeners.delete(send);
      open.delete(res);
    };
    res.on('close', done);
    ctx.req.on('close', done);
    return undefined;
  };
}
