// The message log behind the status stream: one consecutive sequence per scope (each tenant's stream, and a
// public stream carrying no tenant's data), kept whole so a client resumes from any number without a gap.
export interface StreamMessage {
  id: number;
  event: string;
  /** The serialized data line, stored once so a resumed client reads it unchanged. */
  data: string;
}

type Listener = (m: StreamMessage) => void;

export const PUBLIC_SCOPE = '*public*';

export class EventBus {
  private readonly logs = new Map<string, StreamMessage[]>();
  private readonly listeners = new Map<string, Set<Listener>>();

  private log(scope: string): StreamMessage[] {
    let l = this.logs.get(scope);
    if (!l) {
      l = [];
      this.logs.set(scope, l);
    }
    return l;
  }

  publish(scope: string, event: string, payload: Record<string, unknown>): StreamMessage {
    const log = this.log(scope);
    const id = log.length + 1;
    const message = { id, event, data: JSON.stringify({ sequence: id, ...payload }) };
    log.push(message);
    for (const l of this.listeners.get(scope) ?? []) l(message);
    return message;
  }

  last(scope: string): number {
    return this.log(scope).length;
  }

  /** The messages after `after`, then every new one, until the returned function is called. */
  subscribe(scope: string, after: number, listener: Listener): () => void {
    for (const m of this.log(scope).slice(after)) listener(m);
    let set = this.listeners.get(scope);
    if (!set) {
      set = new Set();
      this.listeners.set(scope, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }
}
