// The one store both listeners share, and the connection controller (Pending → Active after a delay).
import { AuditLog } from './audit.ts';
import type { Authority } from './auth.ts';
import { capability } from './catalog.ts';
import { IdempotencyStore } from './idempotency.ts';
import { Revisions, rfc3339, uuidv7 } from './ids.ts';
import type { SlidingWindow } from './rate-limit.ts';
import { StreamHub } from './stream.ts';
import { Webhooks } from './webhooks.ts';

export interface Connection {
  id: string;
  tenant: string;
  connectorId: string;
  environment: string;
  scopeLabel: string;
  state: string;
  capabilities: { capability: string; critical: boolean; idempotencyRequired: boolean }[];
  nextStep: string;
  createdAt: string;
  resourceVersion: string;
  generation: number;
}

export interface ChestnutOptions {
  rateLimit?: number;
  windowMs?: number;
  activationMs?: number;
  tokenTtlSeconds?: number;
  redactKeyOnReplay?: boolean;
  requireServiceVersion?: boolean;
  /** Refuse query parameters an operation does not read (400), like the API server's strict decoding. */
  strictQuery?: boolean;
  /** A missing tenant header: 400 invalid_request (default) or 403 forbidden. */
  missingTenant?: 'invalid' | 'forbidden';
  /** The audit log's largest page (documented in openapi.json); a larger limit is refused (400). */
  auditMaxLimit?: number;
  auditNewestFirst?: boolean;
  /** Page the audit log by data.metadata.continue only, without a Link header (a Kubernetes list's paging). */
  auditNoLink?: boolean;
  /** Webhook deliveries leave through an outbox relayed after this lag. */
  relayDelayMs?: number;
  /** The audit proof names its canonical form: canonicalization "RFC8785". */
  auditDeclareCanonicalization?: boolean;
  port?: number;
  altPort?: number;
}

export class State {
  readonly rv = new Revisions();
  readonly idem = new IdempotencyStore();
  readonly stream = new StreamHub();
  readonly audit: AuditLog;
  readonly webhooks: Webhooks;
  readonly connections: Connection[] = [];
  readonly auth: Authority;
  readonly rate: SlidingWindow;
  readonly options: ChestnutOptions;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(auth: Authority, rate: SlidingWindow, options: ChestnutOptions) {
    this.auth = auth;
    this.rate = rate;
    this.options = options;
    this.webhooks = new Webhooks(this.rv, options.relayDelayMs ?? 0);
    this.audit = new AuditLog(options.auditDeclareCanonicalization === true);
  }

  createConnection(
    tenant: string,
    actor: string,
    requestId: string,
    input: { connectorId: string; environment: string; scopeLabel: string; capabilities: string[] },
  ): Connection {
    const c: Connection = {
      id: uuidv7(),
      tenant,
      connectorId: input.connectorId,
      environment: input.environment,
      scopeLabel: input.scopeLabel,
      state: 'Pending',
      capabilities: input.capabilities.map((id) => {
        const cap = capability(id);
        return {
          capability: id,
          critical: cap?.critical ?? false,
          idempotencyRequired: cap?.idempotencyRequired ?? false,
        };
      }),
      nextStep: 'await-provisioning',
      createdAt: rfc3339(),
      resourceVersion: this.rv.next(),
      generation: 1,
    };
    this.connections.push(c);
    this.audit.record(tenant, 'connection.create', 'Connection', c.id, actor, requestId);
    this.stream.publish('ADDED', { type: 'ADDED', object: watchObject(c) });
    this.webhooks.emit(tenant, 'connection.created', { kind: 'Connection', ...publicConnection(c) });
    const t = setTimeout(() => {
      this.timers.delete(t);
      this.activate(c);
    }, this.options.activationMs ?? 500);
    this.timers.add(t);
    return c;
  }

  private activate(c: Connection): void {
    c.state = 'Active';
    c.nextStep = 'none';
    c.resourceVersion = this.rv.next();
    this.audit.record(
      c.tenant,
      'connection.activate',
      'Connection',
      c.id,
      'system:serviceaccount:chestnut:connection-controller',
      uuidv7(),
    );
    this.stream.publish('MODIFIED', { type: 'MODIFIED', object: watchObject(c) });
    this.webhooks.emit(c.tenant, 'connection.activated', { kind: 'Connection', ...publicConnection(c) });
  }

  close(): void {
    for (const t of this.timers) clearTimeout(t);
    this.webhooks.close();
    this.stream.close();
  }
}

/** The record as the tenant sees it (the tenant is the namespace, shown as a field). */
export function publicConnection(c: Connection): Record<string, unknown> {
  return { ...c };
}

/** What the public stream may carry: identity and state, no tenant, label or connector. */
function watchObject(c: Connection): Record<string, unknown> {
  return { kind: 'Connection', id: c.id, state: c.state, nextStep: c.nextStep, resourceVersion: c.resourceVersion };
}
