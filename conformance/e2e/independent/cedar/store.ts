// cedar's in-memory state: connections, the stream's numbered messages, the hash-linked audit log
// and the idempotency records. One store serves both base URLs.
import { canonicalJson, goTime, newId, sha256Hex } from './ids.ts';

export type Connection = {
  id: string;
  connectorId: string;
  environment: string;
  scopeLabel: string;
  state: string;
  capabilities: { capability: string; critical: boolean; idempotencyRequired: boolean }[];
  nextStep: string;
  createdAt: string;
  updatedAt: string;
};
export type StreamMessage = { seq: number; kind: string; at: string; data: Record<string, unknown> };
export type AuditEntry = {
  seq: number;
  id: string;
  at: string;
  action: string;
  actor: string;
  targetType: string;
  targetId: string;
  requestId: string;
  prev: string;
  hash: string;
};
export type IdemRecord = { fingerprint: string; status: number; body: Record<string, unknown>; expiresAt: number };

export const GENESIS = '0'.repeat(64);
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;

/** relayDelayMs (a variant): state changes reach the stream and webhooks through an outbox relayed that much later. */
export function createStore(relayDelayMs = 0) {
  const connections = new Map<string, Connection[]>();
  const messages: StreamMessage[] = [];
  const listeners = new Set<(m: StreamMessage) => void>();
  const audit = new Map<string, AuditEntry[]>();
  const idem = new Map<string, IdemRecord>();
  // Per-tenant streams (a variant): each tenant's own consecutive numbering, with tenant data.
  const tenantMessages = new Map<string, StreamMessage[]>();
  const tenantListeners = new Map<string, Set<(m: StreamMessage) => void>>();
  const eventHooks: ((tenant: string, kind: string, data: Record<string, unknown>) => void)[] = [];

  /** A state change: one numbered stream message (no tenant data: the stream is public) and webhooks. */
  function publish(tenant: string, kind: string, data: Record<string, unknown>): void {
    if (relayDelayMs > 0) {
      setTimeout(() => relay(tenant, kind, data), relayDelayMs).unref();
      return;
    }
    relay(tenant, kind, data);
  }
  function relay(tenant: string, kind: string, data: Record<string, unknown>): void {
    const m: StreamMessage = { seq: messages.length + 1, kind, at: goTime(), data };
    messages.push(m);
    for (const l of listeners) l(m);
    const own = tenantMessages.get(tenant) ?? [];
    tenantMessages.set(tenant, own);
    const tm: StreamMessage = { seq: own.length + 1, kind, at: m.at, data: { tenant, ...data } };
    own.push(tm);
    for (const l of tenantListeners.get(tenant) ?? []) l(tm);
    for (const h of eventHooks) h(tenant, kind, data);
  }

  function record(tenant: string, e: Omit<AuditEntry, 'seq' | 'id' | 'at' | 'prev' | 'hash'>): void {
    const log = audit.get(tenant) ?? [];
    audit.set(tenant, log);
    const last = log[log.length - 1];
    const body = { ...e, seq: log.length + 1, id: newId('aud'), at: goTime(), prev: last ? last.hash : GENESIS };
    log.push({ ...body, hash: sha256Hex(`${body.prev}\n${canonicalJson(entryContent(body))}`) });
  }

  return {
    connections,
    messages,
    listeners,
    tenantMessages,
    tenantListeners,
    audit,
    idem,
    eventHooks,
    publish,
    record,
    list(tenant: string): Connection[] {
      return connections.get(tenant) ?? [];
    },
    add(tenant: string, c: Connection): void {
      connections.set(tenant, [...(connections.get(tenant) ?? []), c]);
    },
  };
}
export type Store = ReturnType<typeof createStore>;

/** What an audit entry's hash covers: every field but the hash itself. */
export function entryContent(e: Omit<AuditEntry, 'hash'> | AuditEntry): Record<string, unknown> {
  const { hash: _hash, ...rest } = e as AuditEntry;
  return rest;
}
