// The `events` table (Sequelize model, autoincrement id) and the SSE status stream. The SSE number is the
// event's number within its tenant (consecutive per tenant, as the interface asks); Last-Event-ID wins over
// ?cursor=. Without either the stream starts live. The public stream (no bearer token) carries no tenant's data.
import type { ServerResponse } from 'node:http';
import { HttpError } from './http.ts';
import type { Ctx } from './types.ts';

export interface EventRow {
  id: number;
  tenant: string;
  number: number;
  type: string;
  text: string;
}

type Listener = (row: EventRow) => void;

export class EventTable {
  private readonly rows: EventRow[] = [];
  private readonly counters = new Map<string, number>();
  private readonly listeners = new Map<string, Set<Listener>>();
  private nextId = 1;

  append(tenant: string, type: string, payload: Record<string, unknown>): EventRow {
    const number = (this.counters.get(tenant) ?? 0) + 1;
    this.counters.set(tenant, number);
    const id = this.nextId++;
    const text = JSON.stringify({
      id: String(number),
      type,
      tenant,
      occurredAt: new Date().toISOString(),
      data: payload,
    });
    const row: EventRow = { id, tenant, number, type, text };
    this.rows.push(row);
    for (const l of this.listeners.get(tenant) ?? []) l(row);
    return row;
  }

  after(tenant: string, number: number): EventRow[] {
    return this.rows.filter((r) => r.tenant === tenant && r.number > number);
  }

  subscribe(tenant: string, l: Listener): () => void {
    let set = this.listeners.get(tenant);
    if (!set) {
      set = new Set();
      this.listeners.set(tenant, set);
    }
    set.add(l);
    return () => set.delete(l);
  }
}

function position(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  const v = Array.isArray(value) ? value[0] : value;
  if (typeof v !== 'string' || !/^\d+$/.test(v.trim()))
    throw new HttpError(400, 'invalid_request', `${name} must be an integer of at least 0.`, `${name}: ${String(v)}`);
  return Number(v.trim());
}

const write = (res: ServerResponse, row: EventRow) =>
  res.write(`id: ${row.number}\nevent: ${row.type}\ndata: ${row.text}\n\n`);

/**
 * GET /stream. `tenant` is set when the caller sent a valid bearer token with a released tenant; otherwise the
 * stream is the public one and carries only keep-alive comments.
 */
export function openStream(ctx: Ctx, tenant: string | undefined, streams: Set<ServerResponse>): void {
  const last = position(ctx.req.headers['last-event-id'], 'Last-Event-ID');
  const cursor = last ?? position(ctx.query.cursor, 'cursor');
  const { res } = ctx;
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  res.write(`retry: 3000\n: ${tenant ? 'tenant stream' : 'public stream'}\n\n`);
  streams.add(res);
  let unsubscribe: () => unknown = () => undefined;
  if (tenant) {
    if (cursor !== undefined) for (const row of ctx.app.events.after(tenant, cursor)) write(res, row);
    unsubscribe = ctx.app.events.subscribe(tenant, (row) => write(res, row));
  }
  const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
  const end = () => {
    clearInterval(keepAlive);
    unsubscribe();
    streams.delete(res);
  };
  res.on('close', end);
  ctx.req.on('close', end);
}
