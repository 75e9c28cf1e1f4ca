// Event bus of birch: one global sequence of status messages, kept in a ring buffer for resumption.
// The public stream shows them without tenant data; webhooks see them per tenant.
export type BusEvent = { seq: number; event: string; tenant: string | null; at: string; data: Record<string, unknown> };
type Listener = (e: BusEvent) => void;

const BUFFER = 5000;

export class EventBus {
  seq = 0;
  buffer: BusEvent[] = [];
  listeners = new Set<Listener>();

  publish(event: string, tenant: string | null, data: Record<string, unknown>): BusEvent {
    this.seq += 1;
    const e: BusEvent = { seq: this.seq, event, tenant, at: new Date().toISOString(), data };
    this.buffer.push(e);
    if (this.buffer.length > BUFFER) this.buffer.shift();
    for (const l of this.listeners) l(e);
    return e;
  }

  since(seq: number): BusEvent[] {
    return this.buffer.filter((e) => e.seq > seq);
  }

  subscribe(l: Listener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }
}
