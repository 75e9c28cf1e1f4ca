// The status stream: a Kafka topic `connection-status` with one partition per tenant, and a topic
// `connection-status-public` (one partition) that a redacting stream processor fills from it. A message's
// SSE id is its Kafka offset in the partition read. Offset 0 of every partition is the seed record written
// when the partition is created and is never delivered, so `cursor=0` ("last number read": nothing yet)
// replays the whole retained partition (a partition may also begin at a later offset, as after retention:
// a cursor before its start then reads from the start). Without a cursor the stream starts at the end
// (auto.offset.reset=latest).
import type { ServerResponse } from 'node:http';
import { ApiError, instant } from './http-kit.ts';

export const RETAINED = 10_000;

interface KafkaRecord {
  offset: number;
  event: string;
  value: string;
}

class Partition {
  name: string;
  records: KafkaRecord[] = [];
  nextOffset = 0;
  listeners = new Set<(r: KafkaRecord) => void>();
  constructor(name: string, base: number) {
    this.name = name;
    this.nextOffset = base;
    this.append('partition.created', { partition: name, at: instant() });
  }
  append(event: string, payload: Record<string, unknown>): KafkaRecord {
    const offset = this.nextOffset++;
    const record = { offset, event, value: JSON.stringify({ offset, ...payload }) };
    this.records.push(record);
    if (this.records.length > RETAINED) this.records.shift();
    for (const l of this.listeners) l(record);
    return record;
  }
  /** Records after the cursor that are still retained (an expired cursor starts at the log start). */
  after(cursor: number): KafkaRecord[] {
    return this.records.filter((r) => r.offset > cursor && r.event !== 'partition.created');
  }
}

export interface StatusChange {
  tenant: string;
  connectionId: string;
  connectorId: string;
  environment: string;
  scopeLabel: string;
  state: string;
  previousState: string | null;
  at: string;
}

export interface StatusStream {
  produce(change: StatusChange): void;
  /** Serves one SSE consumer; `tenant` undefined means the public (redacted) partition. */
  serve(
    res: ServerResponse,
    headers: Record<string, string>,
    tenant: string | undefined,
    lastRead: number | undefined,
  ): void;
  close(): void;
}

/** Parses `cursor` or `Last-Event-ID` ("last number read", an integer of at least 0). */
export function parseLastRead(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,15}$/.test(value.trim()))
    throw new ApiError('invalid_request', `${name}: expected an integer of at least 0.`);
  return Number(value.trim());
}

export interface StreamOptions {
  streamMaxMs: number;
  streamLagMs: number;
  offsetBase: number;
}

export function createStatusStream(o: StreamOptions): StatusStream {
  const tenants = new Map<string, Partition>();
  const publicPartition = new Partition('connection-status-public-0', o.offsetBase);
  const open = new Set<ServerResponse>();

  const partitionOf = (tenant: string): Partition => {
    let p = tenants.get(tenant);
    if (!p) {
      p = new Partition(`connection-status-${tenant}`, o.offsetBase);
      tenants.set(tenant, p);
    }
    return p;
  };

  const frame = (r: KafkaRecord): string => `id: ${r.offset}\nevent: ${r.event}\ndata: ${r.value}\n\n`;

  return {
    produce(c) {
      const event = `connection.${c.state}`;
      const common = {
        type: event,
        connectionId: c.connectionId,
        state: c.state,
        previousState: c.previousState,
        environment: c.environment,
        at: c.at,
      };
      partitionOf(c.tenant).append(event, { ...common, connectorId: c.connectorId, scopeLabel: c.scopeLabel });
      // The redacting processor: ids and states only, no tenant and no names the tenant gave.
      publicPartition.append(event, common);
    },
    serve(res, headers, tenant, lastRead) {
      const p = tenant === undefined ? publicPartition : partitionOf(tenant);
      res.writeHead(200, {
        ...headers,
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      res.write(
        `retry: 3000\n: partition ${tenant === undefined ? 'public' : 'tenant'}, next offset ${p.nextOffset}\n\n`,
      );
      let last = lastRead ?? p.nextOffset - 1;
      for (const r of p.after(last)) {
        res.write(frame(r));
        last = r.offset;
      }
      const deliver = (r: KafkaRecord): void => {
        if (r.offset <= last || res.writableEnded) return;
        last = r.offset;
        res.write(frame(r));
      };
      // The consumer's poll loop: with a lag, records reach the client in order, o.streamLagMs late.
      const listener = (r: KafkaRecord): void => {
        if (o.streamLagMs <= 0) deliver(r);
        else setTimeout(() => deliver(r), o.streamLagMs).unref();
      };
      p.listeners.add(listener);
      open.add(res);
      const beat = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
      beat.unref();
      const cut = o.streamMaxMs > 0 ? setTimeout(() => res.end(), o.streamMaxMs) : undefined;
      cut?.unref();
      res.on('close', () => {
        clearInterval(beat);
        clearTimeout(cut);
        p.listeners.delete(listener);
        open.delete(res);
      });
    },
    close() {
      for (const res of open) res.end();
      open.clear();
    },
  };
}
