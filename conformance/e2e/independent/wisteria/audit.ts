// The audit log: per tenant, hash-chained (SHA-256 hex over the entry's canonical JSON, which includes
// previousHash), paged Spring Data style, each page signed RSA-PSS SHA-256 with a key published as a JWK set.
import { constants, createHash, sign } from 'node:crypto';
import type { Principal } from './auth.ts';
import { ApiError, type Call, canonical, nowIso, sendOk } from './http-kit.ts';
import type { AuditEntry, State } from './state.ts';

export const JWKS_PATH = '/api/public/v1/.well-known/jwks.json';
const GENESIS = '0'.repeat(64);
const MAX_SIZE = 500;

export function recordAudit(
  state: State,
  tenant: string,
  actor: string,
  action: string,
  resource: { type: string; id: string },
  detail: Record<string, unknown>,
): void {
  let log = state.audit.get(tenant);
  if (log === undefined) {
    log = [];
    state.audit.set(tenant, log);
  }
  const last = log.at(-1);
  const entry: Omit<AuditEntry, 'hash'> = {
    seq: (last?.seq ?? 0) + 1,
    at: nowIso(),
    tenant,
    actor,
    action,
    resourceType: resource.type,
    resourceId: resource.id,
    detail,
    previousHash: last?.hash ?? GENESIS,
  };
  // Default: the entry's canonical JSON (previousHash one of its fields). Suffix mode: the canonical JSON of the
  // entry without its link, then the previous hash appended (the other reading of "own JSON plus previousHash").
  const { previousHash, ...own } = entry;
  const input = state.options.auditHashSuffix ? `${canonical(own)}${previousHash}` : canonical(entry);
  const hash = createHash('sha256').update(input).digest('hex');
  log.push({ ...entry, hash });
}

/** The JWK set holding the audit signing key (public part only). */
export function jwks(state: State): Record<string, unknown> {
  const jwk = state.signer.publicKey.export({ format: 'jwk' });
  return { keys: [{ ...jwk, kid: state.signer.kid, alg: 'PS256', use: 'sig' }] };
}

function intParam(call: Call, name: string, min: number, max: number): number | undefined {
  const raw = call.query.get(name);
  if (raw === null) return undefined;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ApiError('invalid_request', `Query parameter ${name} must be an integer from ${min} to ${max}.`);
  }
  return Number(raw);
}

/** GET /audit-log?page=&size=&sort=seq,desc (limit is accepted as the page size, as the sample call sends it). */
export function readAudit(state: State, call: Call, who: Principal): void {
  const page = intParam(call, 'page', 0, 1_000_000) ?? 0;
  const asked = intParam(call, 'size', 1, MAX_SIZE) ?? intParam(call, 'limit', 1, MAX_SIZE) ?? 20;
  const size = Math.min(asked, state.options.maxPageSize);
  const sortRaw = call.query.get('sort') ?? (state.options.auditOldestFirst ? 'seq,asc' : 'seq,desc');
  const sort = /^seq(,(asc|desc))?$/i.exec(sortRaw);
  if (sort === null) throw new ApiError('invalid_request', 'Query parameter sort must be seq,asc or seq,desc.');
  const desc = (sort[2] ?? 'asc').toLowerCase() === 'desc';
  const all = state.audit.get(who.tenant) ?? [];
  const ordered = desc ? [...all].reverse() : all;
  const content = ordered.slice(page * size, page * size + size);
  const totalPages = Math.ceil(all.length / size);
  const seqs = content.map((e) => e.seq);
  const payload = {
    tenant: who.tenant,
    fromSeq: seqs.length > 0 ? Math.min(...seqs) : 0,
    toSeq: seqs.length > 0 ? Math.max(...seqs) : 0,
    entryHashes: content.map((e) => e.hash),
  };
  const signature = sign('sha256', Buffer.from(canonical(payload)), {
    key: state.signer.privateKey,
    padding: constants.RSA_PKCS1_PSS_PADDING,
    saltLength: 32,
  }).toString('base64url');
  const base = `${call.origin}/api/public/v1/audit-log`;
  const href = (n: number) => ({ href: `${base}?page=${n}&size=${size}&sort=seq,${desc ? 'desc' : 'asc'}` });
  const links: Record<string, unknown> = { self: href(page), first: href(0), last: href(Math.max(0, totalPages - 1)) };
  if (page + 1 < totalPages) links.next = href(page + 1);
  if (page > 0) links.prev = href(page - 1);
  links.jwks = { href: `${call.origin}${JWKS_PATH}` };
  sendOk(call, {
    tenant: who.tenant,
    content,
    page: { number: page, size, totalElements: all.length, totalPages },
    proof: {
      alg: 'PS256',
      kid: state.signer.kid,
      jwksUri: `${call.origin}${JWKS_PATH}`,
      hashAlgorithm: 'SHA-256',
      chain: state.options.auditHashSuffix
        ? 'hash = sha256_hex(canonical_json(entry without hash and previousHash) + previousHash)'
        : 'hash = sha256_hex(canonical_json(entry without hash)), entry includes previousHash',
      payload,
      signature,
    },
    _links: links,
  });
}
