// The status stream (Rocket's `EventStream!`): one numbered log per tenant for authenticated readers, and a
// public log of its own numbering whose messages name no tenant, connection or label (the stream is public).
import type { ServerResponse } from 'node:http';
import { bearer, tenant as tenantGuard } from './auth.ts';
import { ApiError, type Ctx, now, type Rec } from './http.ts';
import type { Store } from './state.ts';

interface Message {
  seq: number;
  event: string;
  data: string;
}

const PUBLIC = '';

export class Hub {
  private readonly logs = new Map<string, Message[]>();
  private readonly readers = new Map<string, Set<ServerResponse>>();

  private append(channel: string, event: string, payload: Rec): void {
    const log = this.logs.get(channel) ?? [];
    const msg = { seq: log.length + 1, event, data: JSON.stringify({ ...payload, at: now() }) };
    log.push(msg);
    this.logs.set(channel, log);
    for (const r of this.readers.get(channel) ?? []) write(r, msg);
  }

  publish(tenant: string, event: string, payload: Rec): void {
    this.append(tenant, event, payload);
    const environment = (payload.connection as Rec | undefined)?.environment;
    this.append(PUBLIC, event, environment ? { environment } : {});
  }

  /** GET /stream: the tenant's log with a valid token and tenant header, else the public one. */
  open(ctx: Ctx, store: Store): void {
    const channel = channelOf(ctx, store);
    const q = ctx.url.searchParams.get('cursor');
    const header = ctx.req.headers['last-event-id'];
    const raw = q ?? (typeof header === 'string' ? header : null);
    if (raw !== null && !/^\d+$/.test(raw.trim())) {
      throw new ApiError('invalid_request', 'cursor / Last-Event-ID must be an integer of at least 0');
    }
    const res = ctx.res;
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      'x-request-id': ctx.requestId,
      ...ctx.headers,
    });
    res.write(': redbud status stream\n\n');
    const log = this.logs.get(channel) ?? [];
    // Without a cursor the reader starts at the live edge, as an SSE client without Last-Event-ID expects.
    const from = raw === null ? log.length : Number(raw.trim());
    for (const m of log) if (m.seq > from) write(res, m);
    const set = this.readers.get(channel) ?? new Set();
    set.add(res);
    this.readers.set(channel, set);
    const ping = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
    ping.unref();
    res.on('close', () => {
      clearInterval(ping);
      set.delete(res);
    });
  }

  closeAll(): void {
    for (const set of this.readers.values()) for (const r of set) r.destroy();
  }
}

function channelOf(ctx: Ctx, store: Store): string {
  if (!ctx.req.headers.authorization) return PUBLIC;
  try {
    bearer(ctx, store);
    return tenantGuard(ctx, store);
  } catch {
    return PUBLIC;
  }
}

function write(res: ServerResponse, m: Message): void {
  res.write(`id: ${m.seq}\nevent: ${m.event}\ndata: ${m.data}\n\n`);
}
