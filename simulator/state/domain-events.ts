/**
 * Something that happened to a tenant's data. Stores emit these; the audit trail, the tenant feed of
 * the status stream and webhook deliveries listen, so a write path never has to know its consumers.
 */
export interface DomainEvent {
  /** e.g. connection.created, connection.state_changed, webhook.created */
  type: string;
  tenant: string;
  /** Client id of the caller, `sandbox-admin` for the control plane, `system` for the lifecycle. */
  actor: string;
  requestId: string;
  /** Simulator clock, ms. */
  at: number;
  target: { type: string; id: string };
  data: Record<string, unknown>;
}

export type DomainEventListener = (event: DomainEvent) => void;

/** @example const bus = createEventBus(); bus.on((e) => console.log(e.type)); bus.emit(event); */
export interface EventBus {
  on(listener: DomainEventListener): () => void;
  emit(event: DomainEvent): void;
}

export function createEventBus(): EventBus {
  const listeners = new Set<DomainEventListener>();
  return {
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit(event) {
      // A failing consumer must not undo or block the write that already happened.
      for (const l of listeners) {
        try {
          l(event);
        } catch {
          /* consumers report their own failures */
        }
      }
    },
  };
}
