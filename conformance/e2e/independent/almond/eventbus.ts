// The event bus carrying state changes (vertx.eventBus() with local consumers) and the cluster-wide counters
// (Hazelcast's IAtomicLong) that number the status stream's messages.

export type Consumer<T> = (message: T) => void;

export interface ConnectionEvent {
  eventId: string;
  type: 'connection.created' | 'connection.state-changed';
  tenantId: string;
  connectionId: string;
  connectorId: string;
  environment: string;
  state: string;
  previousState: string | null;
  at: string;
}

export class EventBus {
  private readonly consumers = new Map<string, Consumer<unknown>[]>();

  consumer<T>(address: string, handler: Consumer<T>): () => void {
    const list = this.consumers.get(address) ?? [];
    list.push(handler as Consumer<unknown>);
    this.consumers.set(address, list);
    return () => {
      const current = this.consumers.get(address) ?? [];
      this.consumers.set(
        address,
        current.filter((h) => h !== handler),
      );
    };
  }

  /** publish(): every consumer of the address, in order, synchronously (a local, non-clustered bus). */
  publish<T>(address: string, message: T): void {
    for (const handler of [...(this.consumers.get(address) ?? [])]) handler(message);
  }
}

/** IAtomicLong: incrementAndGet() per name. */
export class AtomicCounters {
  private readonly values = new Map<string, number>();
  incrementAndGet(name: string): number {
    const next = (this.values.get(name) ?? 0) + 1;
    this.values.set(name, next);
    return next;
  }
  get(name: string): number {
    return this.values.get(name) ?? 0;
  }
}

export const CONNECTION_EVENTS = 'almond.connections.events';
