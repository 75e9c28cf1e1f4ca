// The status stream. Zelkova's Postgres trigger writes each state change to `stream_outbox` (id from the
// sequence `stream_seq`, shared by all tenants) and NOTIFYs; the relay below is the LISTEN side. Numbering:
// the public stream carries every tenant's messages, so the shared sequence is consecutive on it. A sequence
// can skip values (rolled-back inserts), so the relay numbers messages itself in commit order (`id`) and
// keeps the sequence value as `seq` in the payload. With tenant streams on, a stream opened with
// x-service-tenant shows that tenant's messages only, numbered by a per-tenant counter (no gaps either).
import { ApiError, type Ctx, header, pgTime } from './http-kit.ts';

interface Message {
  id: number;
  tenant: string;
  tenantId: number;
  event: string;
  data: Record<string, unknown>;
}

interface Listener {
  tenant?: string;
  send(m: Message): void;
}

export class StatusStream {
  messages: Message[] = [];
  listeners = new Set<Listener>();
  private perTenant = new Map<string, number>();
  private pgSeq = 1000; // the shared Postgres sequence (starts wherever the database is)
  private pending = new Set<NodeJS.Timeout>();
  tenantStreams: boolean;
  /** Open streams without a cursor start at the first message instead of live ("nothing read yet"). */
  fromStart: boolean;
  /** The relay polls the outbox: a message reaches the streams this long after its commit. */
  relayDelayMs: number;

  sseStyle: 'named' | 'plain' | 'pretty';

  constructor(o: {
    tenantStreams?: boolean;
    fromStart?: boolean;
    relayDelayMs?: number;
    sseStyle?: 'named' | 'plain' | 'pretty';
  }) {
    this.sseStyle = o.sseStyle ?? 'named';
    this.tenantStreams = o.tenantStreams ?? false;
    this.fromStart = o.fromStart ?? false;
    this.relayDelayMs = o.relayDelayMs ?? 0;
  }

  publish(tenant: string, event: string, payload: Record<string, unknown>): void {
    const at = pgTime();
    if (!this.relayDelayMs) {
      this.relay(tenant, event, { at, ...payload });
      return;
    }
    const timer = setTimeout(() => {
      this.pending.delete(timer);
      this.relay(tenant, event, { at, ...payload });
    }, this.relayDelayMs);
    this.pending.add(timer);
  }

  /** The NOTIFY handler: numbers the message and fans it out to every open stream. */
  private relay(tenant: string, event: string, payload: Record<string, unknown>): void {
    this.pgSeq += 1 + (this.pgSeq % 3 === 0 ? 1 : 0); // a real sequence skips now and then
    const tenantId = (this.perTenant.get(tenant) ?? 0) + 1;
    this.perTenant.set(tenant, tenantId);
    const m: Message = {
      id: this.messages.length + 1,
      tenant,
      tenantId,
      event,
      data: { kind: event, seq: this.pgSeq, ...payload },
    };
    this.messages.push(m);
    for (const l of this.listeners) if (!l.tenant || l.tenant === tenant) l.send(m);
  }

  /** GET /api/public/v1/stream: Last-Event-ID wins over ?cursor (a reconnecting EventSource knows better). */
  open(ctx: Ctx): void {
    const lastId = header(ctx.req, 'last-event-id');
    const cursorParam = ctx.url.searchParams.get('cursor');
    const from = lastId !== undefined && lastId !== '' ? lastId : cursorParam;
    if (from !== null && !/^\d{1,15}$/.test(from.trim())) {
      throw new ApiError(
        400,
        'invalid_request',
        'cursor must be an integer of at least 0',
        undefined,
        'send the last number read',
      );
    }
    const tenant = this.tenantStreams ? header(ctx.req, 'x-service-tenant')?.trim() || undefined : undefined;
    const numberOf = (m: Message) => (tenant ? m.tenantId : m.id);
    const res = ctx.res;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-request-id': ctx.requestId,
      'x-accel-buffering': 'no',
    });
    res.write(': zelkova status stream\nretry: 3000\n\n');
    // `sseStyle`: 'named' (event: line), 'plain' (kind in the data only) or 'pretty' (JSON over several data: lines).
    const write = (m: Message) => {
      const name = this.sseStyle === 'named' ? `event: ${m.event}\n` : '';
      const json = this.sseStyle === 'pretty' ? JSON.stringify(m.data, null, 2) : JSON.stringify(m.data);
      const data = json
        .split('\n')
        .map((line) => `data: ${line}\n`)
        .join('');
      res.write(`id: ${numberOf(m)}\n${name}${data}\n`);
    };
    if (from !== null || this.fromStart) {
      const after = from === null ? 0 : Number(from.trim());
      for (const m of this.messages) if ((!tenant || m.tenant === tenant) && numberOf(m) > after) write(m);
    }
    const listener: Listener = { tenant, send: write };
    this.listeners.add(listener);
    const beat = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
    const stop = () => {
      clearInterval(beat);
      this.listeners.delete(listener);
    };
    res.on('close', stop);
    ctx.req.on('close', stop);
  }

  closeAll(): void {
    for (const t of this.pending) clearTimeout(t);
    this.listeners.clear();
  }
}
