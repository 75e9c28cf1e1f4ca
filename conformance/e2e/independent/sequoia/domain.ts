// What every route shares: the state behind both ports (the actor's only state), the call's identity, the
// strict-body lens and the keyed modifying call (replay or perform-and-store, with no await in between).
import type { AuditJournal } from './audit-journal.ts';
import { type Exchange, ok, Refusal, readJsonObject } from './http-kit.ts';
import type { IdempotencyStore } from './idempotency.ts';
import type { StatusStream } from './status-stream.ts';
import type { WebhookOutbox } from './webhook-outbox.ts';

export interface Domain {
  idempotency: IdempotencyStore;
  audit: AuditJournal;
  stream: StatusStream;
  outbox: WebhookOutbox;
  connections: Map<string, Record<string, unknown>[]>;
  activationMs: number;
  timers: Set<NodeJS.Timeout>;
  strictBodies: boolean;
  auditOldestFirst: boolean;
  redactSecretOnReplay: boolean;
  /** Connection ids from one identity sequence ("17") instead of UUIDs. */
  numericIds: boolean;
  nextId: () => string;
}

/** With strict bodies, a field the schema does not list is a lens failure. */
export function onlyFields(d: Domain, body: Record<string, unknown>, allowed: string[]): Record<string, unknown> {
  const extra = d.strictBodies ? Object.keys(body).find((k) => !allowed.includes(k)) : undefined;
  if (extra !== undefined)
    throw new Refusal(
      'invalid_request',
      `Lens failed: unknown field ${extra.slice(0, 40)}`,
      `allowed fields: ${allowed.join(', ')}`,
    );
  return body;
}

export interface Call {
  ex: Exchange;
  tenant: string;
  clientId: string;
  tokenExpiresAt: number;
}

/** Runs a keyed modifying call: replay, or perform and store. */
export async function keyed(
  d: Domain,
  c: Call,
  required: boolean,
  perform: (body: Record<string, unknown>, key: string | undefined) => unknown,
  emptyOk = false,
  storedAs = (x: unknown) => x,
) {
  const key = d.idempotency.key(c.ex, required);
  const body = await readJsonObject(c.ex.req, emptyOk);
  const path = c.ex.url.pathname;
  if (key) {
    const replay = d.idempotency.lookup(c.tenant, key, 'POST', path, body);
    if (replay) return ok(c.ex, replay.data, { idempotencyKey: key, replayed: true });
  }
  const data = perform(body, key);
  if (key) d.idempotency.store(c.tenant, key, 'POST', path, body, storedAs(data));
  return ok(c.ex, data, key ? { idempotencyKey: key, replayed: false } : {});
}
