// The status stream: every state change becomes a CloudEvents 1.0 JSON envelope, numbered consecutively in two
// sequences: the tenant's own (read with a token and the tenant header: full connection) and the public one
// (read without credentials: ids and states only, no tenant data). Resumption by Last-Event-ID or ?cursor.
import type { ServerResponse } from 'node:http';
import { type Ctx, invalid, newId } from './http-util.ts';

export interface CloudEvent {
  specversion: '1.0';
  id: string;
  source: string;
  type: string;
  subject: string;
  time: string;
  datacontenttype: 'application/json';
  sequence: string;
  data: Record<string, unknown>;
}

interface Numbered {
  seq: number;
  event: CloudEvent;
}

const RETAIN = 10_000;
export type Listener = (tenant: string, event: CloudEvent) => void;

export function createStream(fromStart = false) {
  const publicLog: Numbered[] = [];
  const tenantLogs = new Map<string, Numbered[]>();
  const clients = new Set<{ tenant?: string; res: ServerResponse }>();
  const listeners: Listener[] = [];

  const append = (log: Numbered[], event: CloudEvent) => {
    const seq = (log.at(-1)?.seq ?? 0) + 1;
    const n = { seq, event: { ...event, sequence: String(seq) } };
    log.push(n);
    if (log.length > RETAIN) log.shift();
    return n;
  };

  const frame = (n: Numbered) => `id: ${n.seq}\nevent: ${n.event.type}\ndata: ${JSON.stringify(n.event)}\n\n`;

  /** Publishes one change: tenant stream, public stream (redacted), then webhook listeners. */
  function emit(
    tenant: string,
    type: string,
    subject: string,
    full: Record<string, unknown>,
    redacted: Record<string, unknown>,
  ): void {
    const id = newId('evt');
    const time = new Date().toISOString();
    const base = {
      specversion: '1.0' as const,
      id,
      type,
      subject,
      time,
      datacontenttype: 'application/json' as const,
      sequence: '',
    };
    let log = tenantLogs.get(tenant);
    if (!log) {
      log = [];
      tenantLogs.set(tenant, log);
    }
    const own = append(log, { ...base, source: `//network.example/tenants/${tenant}`, data: full });
    const pub = append(publicLog, { ...base, source: '//network.example/public', data: redacted });
    // A reader of another tenant's stream gets nothing: its own sequence stays consecutive.
    for (const c of clients) {
      if (c.tenant === undefined) c.res.write(frame(pub));
      else if (c.tenant === tenant) c.res.write(frame(own));
    }
    for (const l of listeners) l(tenant, own.event);
  }

  function onEvent(l: Listener): void {
    listeners.push(l);
  }

  /** GET /stream; tenant undefined reads the public sequence. */
  function serve(ctx: Ctx, tenant: string | undefined): void {
    const header = ctx.req.headers['last-event-id'];
    const cursorParam = ctx.url.searchParams.get('cursor');
    const raw = header !== undefined ? String(header).trim() : cursorParam;
    if (raw !== null && raw !== '' && !/^\d{1,15}$/.test(raw))
      throw invalid(header !== undefined ? 'Last-Event-ID: integer, minimum 0' : 'cursor: integer, minimum 0');
    if (raw === '' && cursorParam === '') throw invalid('cursor: integer, minimum 0');
    const after = raw ? Number(raw) : undefined;
    const log = tenant === undefined ? publicLog : (tenantLogs.get(tenant) ?? []);
    ctx.res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'x-request-id': ctx.requestId,
      'service-version': ctx.version,
      ...ctx.extraHeaders,
    });
    ctx.res.write(': redwood status stream\nretry: 2000\n\n');
    // Without a number the stream starts with what happens next; with one, everything after it is sent first.
    // REDWOOD_STREAM_FROM_START: without a number, the retained history is sent first.
    const from = after ?? (fromStart ? 0 : undefined);
    if (from !== undefined) for (const n of log) if (n.seq > from) ctx.res.write(frame(n));
    const client = { tenant, res: ctx.res };
    clients.add(client);
    const beat = setInterval(() => ctx.res.write(': keep-alive\n\n'), 15_000);
    ctx.req.on('close', () => {
      clearInterval(beat);
      clients.delete(client);
    });
  }

  function closeAll(): void {
    for (const c of clients) c.res.destroy();
    clients.clear();
  }

  return { emit, onEvent, serve, closeAll };
}
