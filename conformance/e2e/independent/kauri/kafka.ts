// Kafka in miniature: one topic `ncs.connection-events` with a partition per tenant (key = tenant) and a
// redacted public partition; a message's number is its partition offset, starting at `firstOffset`. The SSE
// route is a Kafka consumer seeking to the offset after the last one read (Last-Event-ID wins over cursor).
import type { ServerResponse } from 'node:http';
import { isoNow } from './exchange.ts';

export interface Record {
  offset: number;
  key: string;
  eventType: string;
  value: unknown;
  timestamp: string;
}

type Listener = (r: Record) => void;

class Partition {
  readonly log: Record[] = [];
  readonly listeners = new Set<Listener>();
  private readonly firstOffset: number;
  constructor(firstOffset: number) {
    this.firstOffset = firstOffset;
  }
  append(key: string, eventType: string, value: unknown): Record {
    const rec = { offset: this.firstOffset + this.log.length, key, eventType, value, timestamp: isoNow() };
    this.log.push(rec);
    for (const l of this.listeners) l(rec);
    return rec;
  }
  from(offset: number): Record[] {
    return this.log.filter((r) => r.offset >= offset);
  }
}

export const PUBLIC_PARTITION = '__public';

export class KafkaTopic {
  private readonly partitions = new Map<string, Partition>();
  private readonly timers = new Set<NodeJS.Timeout>();
  readonly firstOffset: number;
  constructor(firstOffset: number) {
    this.firstOffset = firstOffset;
  }

  partition(key: string): Partition {
    let p = this.partitions.get(key);
    if (!p) {
      p = new Partition(this.firstOffset);
      this.partitions.set(key, p);
    }
    return p;
  }

  /** Produces to the tenant's partition and a redacted copy to the public one (no ids, no tenant). */
  produce(tenant: string, eventType: string, value: { state?: string; [k: string]: unknown }): Record {
    this.partition(PUBLIC_PARTITION).append('public', eventType, { eventType, state: value.state ?? null });
    return this.partition(tenant).append(tenant, eventType, value);
  }

  /**
   * Streams the partition as Server-Sent Events. `after` is the last offset read (undefined: start live).
   */
  consume(res: ServerResponse, key: string, after: number | undefined, headers: { [k: string]: string }): void {
    const p = this.partition(key);
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      ...headers,
    });
    res.write(`retry: 3000\n: consumer assigned ${key === PUBLIC_PARTITION ? 'public' : 'tenant'} partition\n\n`);
    const write = (r: Record) => {
      res.write(
        `id: ${r.offset}\nevent: ${r.eventType}\ndata: ${JSON.stringify({ offset: r.offset, ...(r.value as object), producedAt: r.timestamp })}\n\n`,
      );
    };
    if (after !== undefined) for (const r of p.from(after + 1)) write(r);
    p.listeners.add(write);
    const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
    this.timers.add(keepAlive);
    res.on('close', () => {
      p.listeners.delete(write);
      clearInterval(keepAlive);
      this.timers.delete(keepAlive);
    });
  }

  close(): void {
    for (const t of this.timers) clearInterval(t);
  }
}
