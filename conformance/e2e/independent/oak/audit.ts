// The tenant's audit log: an HMAC-SHA256 chain per tenant, served as a Laravel paginator (`page`, `limit`,
// `data.data`, `data.links`, `data.meta.last_page`), newest first. The proof names the fields it covers.
import { createHmac } from 'node:crypto';
import type { Call } from './http-kit.ts';
import { BASE, isoMicros, sendError, sendOk } from './http-kit.ts';
import type { AuditEntry, State } from './state.ts';

const FIELDS = ['id', 'sequence', 'event', 'subjectType', 'subjectId', 'actor', 'requestId', 'at', 'prevHash'] as const;
const GENESIS = '0'.repeat(64);
const KEY_ID = 'audit-hmac-2026-11';

function mac(state: State, entry: Omit<AuditEntry, 'hash'>): string {
  const text = FIELDS.map((f) => String(entry[f])).join('|');
  return createHmac('sha256', state.auditKey).update(text).digest('hex');
}

export function appendAudit(
  state: State,
  tenant: string,
  change: { event: string; subjectType: string; subjectId: string; actor: string; requestId: string },
): void {
  const chain = state.audit.get(tenant) ?? [];
  const prev = chain[chain.length - 1];
  const entry = {
    id: String(state.nextId.audit++),
    sequence: chain.length + 1,
    ...change,
    at: isoMicros(),
    prevHash: prev?.hash ?? GENESIS,
  };
  chain.push({ ...entry, hash: mac(state, entry) });
  state.audit.set(tenant, chain);
}

/** A positive integer; above `max` it is clamped (a per-page cap), or refused where the policy says so. */
function positiveInt(call: Call, name: string, fallback: number, max: number, refuseOver = false): number | undefined {
  const value = call.query.get(name);
  if (value === null) return fallback;
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1) {
    sendError(
      call,
      'invalid_request',
      `The ${name} must be a positive integer.`,
      `Query parameter ${name} is not a positive integer.`,
    );
    return undefined;
  }
  if (refuseOver && n > max) {
    sendError(
      call,
      'invalid_request',
      `The ${name} must be between 1 and ${max}.`,
      `Query parameter ${name} is above ${max}.`,
    );
    return undefined;
  }
  return Math.min(n, max);
}

export function readAudit(state: State, call: Call): void {
  const limit = positiveInt(
    call,
    'limit',
    Math.min(15, state.options.auditMaxPerPage),
    state.options.auditMaxPerPage,
    state.options.auditLimitPolicy === 'refuse',
  );
  if (limit === undefined) return;
  const page = positiveInt(call, 'page', 1, Number.MAX_SAFE_INTEGER);
  if (page === undefined) return;
  const chain = state.audit.get(call.tenant ?? '') ?? [];
  const ordered = state.options.auditOldestFirst ? chain : [...chain].reverse();
  const total = ordered.length;
  const lastPage = Math.max(1, Math.ceil(total / limit));
  const entries = ordered.slice((page - 1) * limit, page * limit);
  const path = `${call.origin}${BASE}/audit-log`;
  const link = (p: number) => `${path}?page=${p}&limit=${limit}`;
  const from = entries.length > 0 ? (page - 1) * limit + 1 : null;
  sendOk(call, {
    data: entries,
    links: {
      first: link(1),
      last: link(lastPage),
      prev: page > 1 ? link(page - 1) : null,
      next: page < lastPage ? link(page + 1) : null,
    },
    meta: {
      current_page: page,
      from,
      last_page: lastPage,
      path,
      per_page: limit,
      to: from === null ? null : from + entries.length - 1,
      total,
    },
    proof: {
      algorithm: 'HMAC-SHA256',
      keyId: KEY_ID,
      encoding: 'hex',
      fields: [...FIELDS],
      separator: '|',
      genesis: GENESIS,
      chainLength: total,
      chainHead: chain[chain.length - 1]?.hash ?? GENESIS,
      rule: 'hash = hex(HMAC-SHA256(key, join(separator, fields of the entry))); prevHash = hash of the entry with sequence - 1, genesis for the first',
      verification: 'The key is held by the service; ask support to verify a range by its chainHead and keyId.',
    },
  });
}
