// Connections as Cosmos DB documents partitioned by tenant. Point reads are strong (session token);
// the tenant's list is served from a query that lags writes by `listLagMs`, as cross-region reads do.
// States follow Azure's provisioningState: Accepted -> Succeeded after `activationMs`.
import type { StatusStream } from './stream.ts';
import { azureTime, newId } from './util.ts';
import type { WebhookService } from './webhooks.ts';

export interface Connection {
  id: string;
  connectorId: string;
  environment: string;
  scopeLabel: string;
  state: string;
  capabilities: { capability: string; critical: boolean; idempotencyRequired: boolean }[];
  nextStep: string;
  createdAt: string;
  updatedAt: string;
}

interface Stored {
  tenant: string;
  visibleAt: number;
  doc: Connection;
}

export interface ConnectionStore {
  create(tenant: string, doc: Omit<Connection, 'id' | 'state' | 'nextStep' | 'createdAt' | 'updatedAt'>): Connection;
  list(tenant: string): Connection[];
  get(tenant: string, id: string): Connection | undefined;
  close(): void;
}

export function createConnectionStore(
  opts: { listLagMs: number; activationMs: number; changeFeedDelayMs: number },
  stream: StatusStream,
  webhooks: WebhookService,
): ConnectionStore {
  const docs = new Map<string, Stored>();
  const timers = new Set<NodeJS.Timeout>();
  const feed = (s: Stored, kind: string): void => {
    const d = structuredClone(s.doc);
    const send = (): void => {
      stream.publish(kind, {
        connectionId: d.id,
        connectorId: d.connectorId,
        environment: d.environment,
        state: d.state,
      });
      webhooks.emit(s.tenant, kind, { connection: d });
    };
    if (opts.changeFeedDelayMs <= 0) {
      send();
      return;
    }
    const t = setTimeout(() => {
      timers.delete(t);
      send();
    }, opts.changeFeedDelayMs);
    t.unref();
    timers.add(t);
  };
  return {
    create(tenant, input) {
      const now = Date.now();
      const doc: Connection = {
        id: newId(),
        ...input,
        state: 'Accepted',
        nextStep: 'waitForProvisioning',
        createdAt: azureTime(now),
        updatedAt: azureTime(now),
      };
      const stored = { tenant, visibleAt: now + opts.listLagMs, doc };
      docs.set(doc.id, stored);
      feed(stored, 'connection.created');
      const t = setTimeout(() => {
        timers.delete(t);
        doc.state = 'Succeeded';
        doc.nextStep = 'none';
        doc.updatedAt = azureTime();
        feed(stored, 'connection.provisioned');
      }, opts.activationMs);
      t.unref();
      timers.add(t);
      return structuredClone(doc);
    },
    list(tenant) {
      const now = Date.now();
      return [...docs.values()]
        .filter((s) => s.tenant === tenant && s.visibleAt <= now)
        .map((s) => structuredClone(s.doc));
    },
    get(tenant, id) {
      const s = docs.get(id);
      return s && s.tenant === tenant ? structuredClone(s.doc) : undefined;
    },
    close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}
