// Audit log per tenant, oldest first, paged with cursor/nextCursor; each page carries a Merkle root over
// its entries' hashes (each hash = sha256 of the entry's canonical JSON without the hash).
import type { Ctx } from './http-kit.ts';
import { HttpError, ok } from './http-kit.ts';
import { canonical, iso, merkleRoot, sha256Hex, uuidv7 } from './util.ts';

interface Entry {
  id: string;
  seq: number;
  at: string;
  action: string;
  actor: string;
  resource: { type: string; id: string };
  hash: string;
}

export function createAudit() {
  const logs = new Map<string, Entry[]>();

  function record(tenant: string, action: string, actor: string, resource: { type: string; id: string }): void {
    const list = logs.get(tenant) ?? [];
    logs.set(tenant, list);
    const body = { id: uuidv7(), seq: list.length + 1, at: iso(), action, actor, resource };
    list.push({ ...body, hash: sha256Hex(canonical(body)) });
  }

  function read(ctx: Ctx, tenant: string): void {
    const params = ctx.url.searchParams;
    const limitText = params.get('limit') ?? '20';
    if (!/^[0-9]{1,4}$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > 100) {
      throw new HttpError(400, 'invalid_request', 'limit must be a whole number from 1 to 100.');
    }
    const cursorText = params.get('cursor');
    let after = 0;
    if (cursorText !== null) {
      const m = /^c([0-9]{1,12})$/.exec(cursorText);
      if (!m)
        throw new HttpError(
          400,
          'invalid_request',
          'cursor is not one this log issued.',
          'Send back nextCursor unchanged.',
        );
      after = Number(m[1]);
    }
    const list = logs.get(tenant) ?? [];
    const limit = Number(limitText);
    const entries = list.filter((e) => e.seq > after).slice(0, limit);
    const last = entries.at(-1);
    const more = last !== undefined && list.some((e) => e.seq > last.seq);
    const hashes = entries.map((e) => e.hash);
    ok(ctx, {
      tenant,
      order: 'oldest_first',
      count: entries.length,
      entries,
      nextCursor: more && last ? `c${last.seq}` : null,
      proof: {
        type: 'merkle-sha256',
        leaves: 'sha256 of each entry as canonical JSON (sorted keys) without its hash field',
        pairing: 'sha256 over the concatenated lowercase hex of left and right; an odd node moves up unchanged',
        hashes,
        merkleRoot: merkleRoot(hashes),
      },
    });
  }

  return { record, read };
}
export type Audit = ReturnType<typeof createAudit>;
