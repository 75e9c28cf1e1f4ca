// maple's shared state (both base addresses): connections, idempotency records, hash-chained audit
// logs per tenant, and the public status stream's sequence.
import { createHash, randomBytes } from 'node:crypto';
import { canonical } from './http-kit.ts';

export const newId = (prefix: string) => `${prefix}_${randomBytes(10).toString('hex')}`;
const DAY_MS = 24 * 3600 * 1000;

export interface Connection {
  id: string;
  connectorId: string;
  environment: string;
  scopeLabel: string;
  state: string;
  capabilities: { capability: string; critical: boolean; idempotencyRequired: boolean }[];
  nextStep: string;
  createdAt: string;
}

export interface Recorded {
  fingerprint: string;
  status: number;
  data: unknown;
  firstUse: number;
}

export interface AuditEntry {
  id: string;
  seq: number;
  action: string;
  actor: string;
  resource: string;
  at: string;
  prevHash: string;
  hash: string;
}

export interface StreamMessage {
  seq: number;
  data: Record<string, unknown>;
}

const GENESIS = '0'.repeat(64);

export class Store {
  connections = new Map<string, Connection[]>();
  private idem = new Map<string, Recorded>();
  audit = new Map<string, AuditEntry[]>();
  messages: StreamMessage[] = [];
  private listeners = new Set<(m: StreamMessage) => void>();

  connectionsOf(tenant: string) {
    let list = this.connections.get(tenant);
    if (!list) {
      list = [];
      this.connections.set(tenant, list);
    }
    return list;
  }

  /** The record of a key for this access and tenant, while it lasts (24 h from first use). */
  recorded(scope: string, key: string): Recorded | undefined {
    const r = this.idem.get(`${scope}\u0000${key}`);
    if (r && Date.now() - r.firstUse > DAY_MS) {
      this.idem.delete(`${scope}\u0000${key}`);
      return undefined;
    }
    return r;
  }

  record(scope: string, key: string, r: Recorded) {
    this.idem.set(`${scope}\u0000${key}`, r);
  }

  appendAudit(tenant: string, action: string, actor: string, resource: string) {
    let chain = this.audit.get(tenant);
    if (!chain) {
      chain = [];
      this.audit.set(tenant, chain);
    }
    const prevHash = chain.at(-1)?.hash ?? GENESIS;
    const body = {
      id: newId('aud'),
      seq: chain.length + 1,
      action,
      actor,
      resource,
      at: new Date().toISOString(),
      prevHash,
    };
    const hash = createHash('sha256').update(canonical(body)).digest('hex');
    chain.push({ ...body, hash });
  }

  publish(data: Record<string, unknown>) {
    const m = { seq: this.messages.length + 1, data: { ...data, seq: this.messages.length + 1 } };
    this.messages.push(m);
    for (const l of this.listeners) l(m);
  }

  subscribe(listener: (m: StreamMessage) => void) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
