// GET /api/public/v1/audit-log: the tenant's hash-linked log, newest first, paged by cursor. The proof:
// each entry's hash = sha256(prev + "\n" + canonical JSON of the entry without hash), prev links to the
// older entry (genesis: 64 zeros), and the head of the whole log is signed with cedar's audit key (HMAC).
import { createHmac, randomBytes } from 'node:crypto';
import type { Ctx } from './http-kit.ts';
import { ApiError } from './http-kit.ts';
import type { Store } from './store.ts';
import { wholeNumber } from './validate.ts';

const AUDIT_KEY = randomBytes(32);
const AUDIT_KEY_ID = 'audit-2026-11';

/** oldestFirst (a variant): ascending order, the next page only in a Link header (rel="next"). */
export function auditPage(ctx: Ctx, store: Store, tenant: string, oldestFirst = false): Record<string, unknown> {
  const limit = wholeNumber(ctx.url.searchParams.get('limit'), 'limit') ?? 20;
  if (limit < 1 || limit > 200) throw new ApiError('invalid_request', 'limit must be 1 to 200');
  const before = wholeNumber(ctx.url.searchParams.get('cursor'), 'cursor');
  const log = store.audit.get(tenant) ?? [];
  const ordered = oldestFirst ? log : [...log].reverse();
  const start = before === undefined ? 0 : ordered.findIndex((e) => (oldestFirst ? e.seq > before : e.seq < before));
  const page = start < 0 ? [] : ordered.slice(start, start + limit);
  const last = page[page.length - 1];
  if (oldestFirst) {
    const more = last !== undefined && last.seq < log.length;
    if (more) ctx.headers.link = `<${ctx.path}?limit=${limit}&cursor=${last.seq}>; rel="next"`;
  }
  const head = log[log.length - 1];
  const headHash = head ? head.hash : '0'.repeat(64);
  return {
    tenant,
    count: page.length,
    order: oldestFirst ? 'oldest-first' : 'newest-first',
    entries: page,
    ...(oldestFirst ? {} : { nextCursor: last && last.seq > 1 ? String(last.seq) : null }),
    proof: {
      scheme: 'cedar-hashlink-v1',
      hash: 'sha256',
      covers: 'every field of an entry but hash, keys sorted, no whitespace; hash = sha256(prev + "\\n" + that text)',
      headSeq: head ? head.seq : 0,
      headHash,
      headSignature: createHmac('sha256', AUDIT_KEY)
        .update(`${tenant}:${head ? head.seq : 0}:${headHash}`)
        .digest('hex'),
      signatureKeyId: AUDIT_KEY_ID,
    },
  };
}
