// The status stream (SSE, one public sequence, resumable by ?cursor or Last-Event-ID) and the audit log: a
// SHA-512 hash chain per tenant, read in numbered pages (newest first) with Laravel-style links.
import { ApiError, type Ctx, header, ok } from './http.ts';
import type { AuditEntry, State } from './state.ts';
import { canonical, iso, newId, sha512Hex } from './util.ts';

export const GENESIS = '0'.repeat(128);

/** Appends a message to the stream and sends it to every open listener. */
export function publish(state: State, event: string, payload: Record<string, unknown>): void {
  const seq = state.stream.length + 1;
  const data = JSON.stringify({ seq, event, occurred_at: iso(), ...payload });
  state.stream.push({ seq, event, data });
  for (const res of state.listeners) res.write(`id: ${seq}\nevent: ${event}\ndata: ${data}\n\n`);
}

function startAfter(ctx: Ctx): number {
  const cursor = ctx.url.searchParams.get('cursor');
  if (cursor !== null) {
    if (!/^\d+$/.test(cursor) || !Number.isSafeInteger(Number(cursor))) {
      throw new ApiError('invalid_request', 'cursor: must be an integer of at least 0', 'Send the last number read.');
    }
    return Number(cursor);
  }
  const last = header(ctx, 'last-event-id')?.trim();
  return last && /^\d+$/.test(last) ? Number(last) : -1;
}

/** GET /stream: the backlog after the cursor (none without one), then live messages, a comment every 15 s. */
export function stream(state: State, ctx: Ctx): void {
  const after = startAfter(ctx);
  const res = ctx.res;
  res.writeHead(200, {
    'Content-Type': 'text/event-stream',
    'Cache-Control': 'no-cache',
    Connection: 'keep-alive',
    'X-Request-Id': ctx.requestId,
    'X-Accel-Buffering': 'no',
  });
  res.write(': sycamore status stream\nretry: 2000\n\n');
  if (after >= 0) {
    for (const m of state.stream.slice(after)) res.write(`id: ${m.seq}\nevent: ${m.event}\ndata: ${m.data}\n\n`);
  }
  state.listeners.add(res);
  const beat = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
  const done = () => {
    clearInterval(beat);
    state.listeners.delete(res);
  };
  res.on('close', done);
  res.on('error', done);
}

/** The entry's hash: SHA-512 (hex) over the RFC 8785 JSON of the entry without `hash` (prev_hash included). */
export function entryHash(entry: Omit<AuditEntry, 'hash'>): string {
  return sha512Hex(canonical(entry));
}

export function audit(state: State, tenant: string, clientId: string, action: string, subjectId: string): void {
  const list = state.audit.get(tenant) ?? [];
  state.audit.set(tenant, list);
  const prev = list[list.length - 1];
  const entry = {
    id: newId('aud'),
    seq: list.length + 1,
    action,
    subject_id: subjectId,
    client_id: clientId,
    occurred_at: iso(),
    prev_hash: prev ? prev.hash : GENESIS,
  };
  list.push({ ...entry, hash: entryHash(entry) });
}

function positive(ctx: Ctx, name: string, max: number): number | undefined {
  const v = ctx.url.searchParams.get(name);
  if (v === null) return undefined;
  if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > max) {
    throw new ApiError('invalid_request', `${name}: must be an integer from 1 to ${max}`);
  }
  return Number(v);
}

/** GET /audit-log?page=&per_page= (limit is an alias of per_page). */
export function auditLog(state: State, ctx: Ctx): void {
  const tenant = ctx.tenant ?? '';
  const max = state.opts.auditMaxPerPage;
  const perPage =
    positive(ctx, 'per_page', max) ?? positive(ctx, 'limit', max) ?? Math.min(max, state.opts.auditPerPage);
  const page = positive(ctx, 'page', 1_000_000) ?? 1;
  const stored = state.audit.get(tenant) ?? [];
  const all = state.opts.auditOldestFirst ? [...stored] : [...stored].reverse();
  const lastPage = Math.max(1, Math.ceil(all.length / perPage));
  const entries = all.slice((page - 1) * perPage, page * perPage);
  const base = new URL(ctx.url.pathname, ctx.url);
  const link = (p: number) => {
    const u = new URL(base);
    u.searchParams.set('page', String(p));
    u.searchParams.set('per_page', String(perPage));
    return `${u.pathname}${u.search}`;
  };
  const head = stored[stored.length - 1];
  ok(ctx, {
    tenant,
    entries,
    current_page: page,
    last_page: lastPage,
    per_page: perPage,
    total: all.length,
    links: {
      first: link(1),
      last: link(lastPage),
      prev: page > 1 ? link(page - 1) : null,
      next: page < lastPage ? link(page + 1) : null,
    },
    chain_head: {
      seq: head?.seq ?? 0,
      hash: head?.hash ?? GENESIS,
      algorithm: 'sha512',
      canonicalization: 'RFC8785',
      genesis_hash: GENESIS,
    },
  });
}
