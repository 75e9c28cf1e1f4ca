// The tenant's audit log with a proof of integrity of acacia's own design ("acacia-chain/1"): every entry
// carries sha256(previousHash + "\n" + canonical JSON of the entry without its hash), genesis 64 zeros, and
// each answer carries a signed checkpoint: HMAC-SHA256 over "<tenant>|<headSequence>|<headHash>" with the
// audit key (key id shown), so a client can verify the chain and that the head was issued by the service.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { ApiError, type Ctx } from './http.ts';
import { stamp } from './time.ts';
import { queryText } from './validate.ts';

export interface AuditEntry {
  sequence: number;
  id: string;
  at: string;
  action: string;
  actor: string;
  resourceType: string;
  resourceId: string;
  details: Record<string, unknown>;
  correlationId: string;
  previousHash: string;
  hash: string;
}

export interface AuditState {
  key: Buffer;
  keyId: string;
  chains: Map<string, AuditEntry[]>;
}

const GENESIS = '0'.repeat(64);

export function createAudit(): AuditState {
  const key = randomBytes(32);
  return { key, keyId: `audit-${createHash('sha256').update(key).digest('hex').slice(0, 12)}`, chains: new Map() };
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

export function record(
  a: AuditState,
  tenant: string,
  e: {
    action: string;
    actor: string;
    resourceType: string;
    resourceId: string;
    details: Record<string, unknown>;
    correlationId: string;
  },
): void {
  let chain = a.chains.get(tenant);
  if (!chain) {
    chain = [];
    a.chains.set(tenant, chain);
  }
  const prev = chain[chain.length - 1];
  const body = {
    sequence: (prev?.sequence ?? 0) + 1,
    id: `AUD-${tenant}-${(prev?.sequence ?? 0) + 1}`,
    at: stamp(),
    ...e,
    previousHash: prev?.hash ?? GENESIS,
  };
  const hash = createHash('sha256')
    .update(`${body.previousHash}\n${canonical(body)}`)
    .digest('hex');
  chain.push({ ...body, hash });
}

function bad(detail: string): ApiError {
  return new ApiError('invalid_request', 'The request is incomplete or unsuitable.', detail);
}

/** GET /audit-log?limit=&beforeSequence= (newest first) or ?afterSequence= (oldest first), paged by sequence. */
export function readAudit(a: AuditState, ctx: Ctx, tenant: string, oldestFirst = false): Record<string, unknown> {
  const l = queryText(ctx.query, 'limit');
  const pageParam = oldestFirst ? 'afterSequence' : 'beforeSequence';
  const b = queryText(ctx.query, pageParam);
  if (l !== undefined && !/^\d+$/.test(l)) throw bad('limit: an integer from 1 to 500');
  const limit = l === undefined ? 50 : Number(l);
  if (limit < 1 || limit > 500) throw bad('limit: an integer from 1 to 500');
  if (b !== undefined && !/^\d+$/.test(b)) throw bad(`${pageParam}: an integer, minimum 0`);
  const chain = a.chains.get(tenant) ?? [];
  const from = b === undefined ? (oldestFirst ? 0 : Number.POSITIVE_INFINITY) : Number(b);
  const older = oldestFirst ? chain.filter((e) => e.sequence > from) : chain.filter((e) => e.sequence < from).reverse();
  const entries = older.slice(0, limit);
  const head = chain[chain.length - 1];
  const headSequence = head?.sequence ?? 0;
  const headHash = head?.hash ?? GENESIS;
  const last = entries[entries.length - 1];
  const data: Record<string, unknown> = {
    tenant,
    order: oldestFirst ? 'oldest-first' : 'newest-first',
    count: entries.length,
    entries,
    integrity: {
      scheme: 'acacia-chain/1',
      hashAlgorithm: 'SHA-256',
      entryHash: 'sha256(previousHash + "\\n" + canonical JSON of the entry without hash, keys sorted)',
      genesisHash: GENESIS,
      headSequence,
      headHash,
      checkpoint: {
        algorithm: 'HMAC-SHA256',
        keyId: a.keyId,
        signedText: `${tenant}|${headSequence}|${headHash}`,
        signature: createHmac('sha256', a.key).update(`${tenant}|${headSequence}|${headHash}`).digest('hex'),
      },
    },
  };
  if (last && older.length > entries.length) {
    data.nextPage = `/api/public/v1/audit-log?limit=${limit}&${pageParam}=${last.sequence}`;
  }
  return data;
}
