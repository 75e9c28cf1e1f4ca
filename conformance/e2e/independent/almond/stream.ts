// The status stream (GET /stream): Server-Sent Events fed by the event bus. The public stream numbers every
// message with one counter and carries no tenant's data; a caller sending a valid bearer token and a released
// tenant reads that tenant's stream, numbered by its own counter. Resumption by Last-Event-ID or ?cursor.
import type { Realm } from './auth.ts';
import { missingTenant } from './auth.ts';
import { type AtomicCounters, CONNECTION_EVENTS, type ConnectionEvent, type EventBus } from './eventbus.ts';
import type { RateLimiter } from './ratelimit.ts';
import type { RoutingContext } from './types.ts';
import { badRequest } from './util.ts';

interface StreamMessage {
  id: number;
  event: string;
  data: string;
}

const KEEP = 10_000;
const PUBLIC = 'public';

export class StatusStream {
  private readonly logs = new Map<string, StreamMessage[]>();
  private readonly listeners = new Map<string, Set<(m: StreamMessage) => void>>();
  private readonly counters: AtomicCounters;

  constructor(bus: EventBus, counters: AtomicCounters) {
    this.counters = counters;
    bus.consumer<ConnectionEvent>(CONNECTION_EVENTS, (e) => {
      this.append(PUBLIC, e.type, {
        eventId: e.eventId,
        connectionId: e.connectionId,
        connectorId: e.connectorId,
        state: e.state,
        previousState: e.previousState,
        occurredAt: e.at,
      });
      this.append(`tenant:${e.tenantId}`, e.type, {
        eventId: e.eventId,
        tenantId: e.tenantId,
        connectionId: e.connectionId,
        connectorId: e.connectorId,
        environment: e.environment,
        state: e.state,
        previousState: e.previousState,
        occurredAt: e.at,
      });
    });
  }

  private append(channel: string, event: string, payload: Record<string, unknown>): void {
    const id = this.counters.incrementAndGet(`stream.${channel}`);
    const message = { id, event, data: JSON.stringify({ sequence: id, type: event, ...payload }) };
    const log = this.logs.get(channel) ?? [];
    log.push(message);
    if (log.length > KEEP) log.splice(0, log.length - KEEP);
    this.logs.set(channel, log);
    for (const l of this.listeners.get(channel) ?? []) l(message);
  }

  /** The handler: scope, resumption point, backlog, then live messages until the client leaves. */
  handle(ctx: RoutingContext, realm: Realm, limiter: RateLimiter): undefined {
    let channel = PUBLIC;
    if (ctx.req.headers.authorization) {
      const clientId = realm.verify(ctx.req.headers.authorization);
      const tenant = ctx.req.headers['x-service-tenant'];
      if (typeof tenant !== 'string' || tenant === '') throw missingTenant();
      realm.release(clientId, tenant);
      limiter.consume(clientId, tenant, ctx.headers);
      channel = `tenant:${tenant}`;
    }
    const header = ctx.req.headers['last-event-id'];
    const cursor = ctx.query.get('cursor');
    let after: number | undefined;
    const raw = typeof header === 'string' && header.trim() !== '' ? header.trim() : (cursor ?? undefined);
    if (raw !== undefined) {
      if (!/^\d+$/.test(raw)) throw badRequest('Invalid cursor: an integer, minimum 0, is expected');
      after = Number(raw);
    }
    const res = ctx.res;
    res.writeHead(200, {
      ...ctx.headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write('retry: 3000\n\n');
    const send = (m: StreamMessage) => res.write(`id: ${m.id}\nevent: ${m.event}\ndata: ${m.data}\n\n`);
    if (after !== undefined) for (const m of this.logs.get(channel) ?? []) if (m.id > after) send(m);
    const listeners = this.listeners.get(channel) ?? new Set();
    this.listeners.set(channel, listeners);
    listeners.add(send);
    const ping = setInterval(() => res.write(': ping\n\n'), 15_000);
    const stop = () => {
      clearInterval(ping);
      listeners.delete(send);
    };
    res.on('close', stop);
    ctx.req.on('close', stop);
    return undefined;
  }
}
