// Helidon SE's SSE sink: `id:`, `event:` and `data:` lines written without a space after the colon, as the
// SseEvent writer does. One numbered channel per tenant (an authenticated stream) and one public channel whose
// messages carry no tenant's data, each numbered from 1 without gaps, kept for resumption.
import type { ServerResponse } from 'node:http';
import { bad, type Ctx, jsonb, offsetDateTime, type Rec } from './http.ts';

interface Message {
  id: number;
  event: string;
  data: string;
}

interface Channel {
  messages: Message[];
  sinks: Set<ServerResponse>;
}

export class StreamHub {
  private channels = new Map<string, Channel>();
  private readonly pretty: boolean;

  constructor(pretty = false) {
    this.pretty = pretty;
  }

  private channel(name: string): Channel {
    let c = this.channels.get(name);
    if (!c) {
      c = { messages: [], sinks: new Set() };
      this.channels.set(name, c);
    }
    return c;
  }

  private publish(name: string, event: string, payload: Rec): void {
    const c = this.channel(name);
    const msg = { id: c.messages.length + 1, event, data: JSON.stringify(jsonb(payload), null, this.pretty ? 4 : 0) };
    c.messages.push(msg);
    for (const sink of c.sinks) write(sink, msg);
  }

  /** A state change of a tenant: the full record to the tenant, its kind and time alone to the public channel. */
  emit(tenant: string, event: string, payload: Rec): void {
    const at = offsetDateTime();
    this.publish(`tenant:${tenant}`, event, { type: event, occurredAt: at, payload });
    this.publish('public', event, { type: event, occurredAt: at });
  }

  /** Opens a stream after `cursor` (query) or Last-Event-ID (header): the kept messages, then live ones. */
  open(ctx: Ctx, tenant: string | undefined): void {
    const raw = ctx.url.searchParams.get('cursor') ?? ctx.req.headers['last-event-id'];
    let after = 0;
    if (raw !== undefined && raw !== null && raw !== '') {
      if (typeof raw !== 'string' || !/^\d+$/.test(raw)) throw bad('cursor: must be an integer of at least 0');
      after = Number(raw);
    }
    const c = this.channel(tenant ? `tenant:${tenant}` : 'public');
    ctx.res.writeHead(200, {
      ...ctx.headers,
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    ctx.res.write(':ok\n\n');
    for (const m of c.messages) if (m.id > after) write(ctx.res, m);
    c.sinks.add(ctx.res);
    const ping = setInterval(() => ctx.res.write(':ping\n\n'), 15_000);
    ctx.res.on('close', () => {
      clearInterval(ping);
      c.sinks.delete(ctx.res);
    });
  }

  close(): void {
    for (const c of this.channels.values()) for (const s of c.sinks) s.end();
  }
}

function write(res: ServerResponse, m: Message): void {
  // A pretty-printed message spans several data: lines; the client joins them with line breaks.
  const data = m.data
    .split('\n')
    .map((l) => `data:${l}\n`)
    .join('');
  res.write(`id:${m.id}\nevent:${m.event}\n${data}\n`);
}
