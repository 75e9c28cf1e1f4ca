// Connections of ebony: created PEND (pending) by the online transaction, made ACTV (active) by the activation
// batch after a short delay; each change goes to the status stream, the tenant's webhooks and the audit journal.
import type { AuditJournal } from './audit.ts';
import { capability, connector } from './catalog.ts';
import { ApiError, type Call, type Environment, environment, nowIso, text } from './http.ts';
import type { StatusStream } from './stream.ts';
import type { Webhooks } from './webhooks.ts';

export const STATES = ['PEND', 'ACTV', 'PAUS', 'TERM'] as const;
type State = (typeof STATES)[number];

const NEXT_STEP: Record<State, string> = {
  PEND: 'AWAIT ACTIVATION BATCH EBACTV01',
  ACTV: 'NONE',
  PAUS: 'REQUEST RESUME FROM OPERATIONS',
  TERM: 'NONE',
};

interface Connection {
  id: string;
  tenant: string;
  connectorId: string;
  environment: Environment;
  scopeLabel: string;
  state: State;
  capabilities: { capability: string; critical: boolean; idempotencyRequired: boolean }[];
  nextStep: string;
  createdAt: string;
  updatedAt: string;
}

export class Connections {
  private readonly all: Connection[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private seq = 0;
  private readonly activationDelayMs: number;
  private readonly stream: StatusStream;
  private readonly webhooks: Webhooks;
  private readonly audit: AuditJournal;

  constructor(activationDelayMs: number, stream: StatusStream, webhooks: Webhooks, audit: AuditJournal) {
    this.activationDelayMs = activationDelayMs;
    this.stream = stream;
    this.webhooks = webhooks;
    this.audit = audit;
  }

  get(call: Call) {
    const c = this.all.find((x) => x.id === call.params.connectionId && x.tenant === call.tenant);
    if (!c) throw new ApiError('not_found', 'The entry does not exist.', `connection ${call.params.connectionId}`);
    return view(c);
  }

  list(call: Call) {
    const connections = this.all.filter((c) => c.tenant === call.tenant).map(view);
    return { tenant: call.tenant, count: connections.length, connections };
  }

  create(call: Call) {
    const b = call.body;
    const connectorId = text(b, 'connectorId', 2, 120);
    const env = environment(b, 'environment');
    const scopeLabel = text(b, 'scopeLabel', 2, 120);
    const caps = b.capabilities;
    if (!Array.isArray(caps) || caps.length < 1 || caps.length > 24) {
      throw new ApiError('invalid_request', 'Field capabilities must hold 1 to 24 items.', 'capabilities');
    }
    for (const c of caps) {
      if (typeof c !== 'string' || c.length < 2 || c.length > 120) {
        throw new ApiError(
          'invalid_request',
          'Each capability must be a string of 2 to 120 characters.',
          'capabilities',
        );
      }
    }
    const con = connector(connectorId);
    if (!con) throw new ApiError('not_found', 'The entry does not exist.', `connector ${connectorId}`);
    const unique = [...new Set(caps as string[])];
    const denied = unique.filter((c) => !con.capabilities.includes(c) || !capability(c));
    if (denied.length > 0) {
      throw new ApiError(
        'capability_denied',
        'Capability is not released for this connection.',
        `not booked for ${connectorId}: ${denied.join(', ')}`,
        'Have the capability released.',
      );
    }
    const at = nowIso();
    const conn: Connection = {
      id: `CN${String(++this.seq).padStart(8, '0')}`,
      tenant: call.tenant,
      connectorId,
      environment: env,
      scopeLabel,
      state: 'PEND',
      capabilities: unique.map((id) => {
        const c = capability(id);
        return { capability: id, critical: c?.critical ?? false, idempotencyRequired: c?.idempotencyRequired ?? false };
      }),
      nextStep: NEXT_STEP.PEND,
      createdAt: at,
      updatedAt: at,
    };
    this.all.push(conn);
    this.audit.record(call, 'CONNECTION.CREATE', 'connection', conn.id);
    this.stream.publish('connection.created', {
      connectionId: conn.id,
      connectorId,
      environment: env,
      state: conn.state,
    });
    this.webhooks.emit(conn.tenant, 'connection.created', { connection: view(conn) });
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.activate(conn);
    }, this.activationDelayMs);
    this.timers.add(timer);
    return view(conn);
  }

  close(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private activate(conn: Connection): void {
    if (conn.state !== 'PEND') return;
    conn.state = 'ACTV';
    conn.nextStep = NEXT_STEP.ACTV;
    conn.updatedAt = nowIso();
    this.stream.publish('connection.activated', {
      connectionId: conn.id,
      connectorId: conn.connectorId,
      environment: conn.environment,
      state: conn.state,
      previousState: 'PEND',
    });
    this.webhooks.emit(conn.tenant, 'connection.activated', { connection: view(conn) });
  }
}

function view(c: Connection) {
  const { tenant: _, ...rest } = c;
  return { ...rest, capabilities: c.capabilities.map((x) => ({ ...x })) };
}
