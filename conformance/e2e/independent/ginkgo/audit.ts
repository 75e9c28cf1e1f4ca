// The audit log: per tenant, a hash chain. Each entry carries `prev_digest` (the previous entry's digest,
// 43 `A`s before the first) and `digest` = base64url(SHA-256(prev_digest + "." + canonical JSON of the entry
// without `digest`)), canonical = keys sorted, no spaces. Pages are newest first and carry `chain_head`.
import { createHash } from 'node:crypto';
import { type Call, canonical, ok } from './http-kit.ts';
import { intParam } from './validation.ts';

export const GENESIS = Buffer.alloc(32).toString('base64url');

export interface AuditEntry {
  seq: number;
  at: string;
  action: string;
  actor: string;
  resourceType: string;
  resourceId: string;
  requestId: string;
  prev_digest: string;
  digest: string;
}

export class AuditLog {
  chains = new Map<string, AuditEntry[]>();

  record(
    tenant: string,
    action: string,
    actor: string,
    resourceType: string,
    resourceId: string,
    requestId: string,
  ): void {
    const chain = this.chains.get(tenant) ?? [];
    this.chains.set(tenant, chain);
    const prev = chain[chain.length - 1];
    const body = {
      seq: chain.length + 1,
      at: new Date().toISOString(),
      action,
      actor,
      resourceType,
      resourceId,
      requestId,
      prev_digest: prev ? prev.digest : GENESIS,
    };
    const digest = createHash('sha256')
      .update(`${body.prev_digest}.${canonical(body)}`)
      .digest('base64url');
    chain.push({ ...body, digest });
  }

  /** GET /api/public/v1/audit-log?limit=1..500&cursor=<seq>: entries with seq below the cursor. */
  page(call: Call): void {
    const limit = intParam('query.limit', call.query.get('limit'), 1, 500) ?? 50;
    const cursor = intParam('query.cursor', call.query.get('cursor'), 1);
    const chain = this.chains.get(call.tenant ?? '') ?? [];
    const newestFirst = [...chain].reverse().filter((e) => cursor === undefined || e.seq < cursor);
    const entries = newestFirst.slice(0, limit);
    const last = entries[entries.length - 1];
    const more = newestFirst.length > entries.length && last !== undefined;
    const data: Record<string, unknown> = {
      tenant: call.tenant,
      count: entries.length,
      entries,
      chain_head: chain.length > 0 ? chain[chain.length - 1]?.digest : GENESIS,
      chain_length: chain.length,
      proof: {
        type: 'hash-chain',
        hash: 'SHA-256',
        encoding: 'base64url',
        genesis: GENESIS,
        input: 'prev_digest + "." + JSON of the entry without digest, keys sorted, no whitespace',
      },
    };
    const extra: Record<string, string> = {};
    if (more) {
      data.next_cursor = last.seq;
      extra.link = `<${call.path}?limit=${limit}&cursor=${last.seq}>; rel="next"`;
    }
    ok(call, data, extra);
  }
}
