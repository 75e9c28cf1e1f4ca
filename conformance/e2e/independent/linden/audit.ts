// The audit log: per tenant an append-only chain whose running digest is
//   digest_n = sha256_hex(digest_{n-1} + canonical_json(entry_n without digest and prevDigest)), digest_0 = 64 x "0",
// and every page carries the chain's head (seq, digest) signed with Ed25519 over
//   "linden-audit-v1\n" + tenant + "\n" + seq + "\n" + digest.
// Verify: recompute the digests of the page from the previous page's last digest (or digest_0 from seq 1),
// follow the pages up to the head, and check the signature with the public key in the proof (raw 32 bytes,
// base64url; also in the self-description). Keyset paging: oldest first with ?after=<seq>.
import { sign as edSign, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { ApiError, type Call, ok } from './call.ts';
import { type AuditEntry, type State, stamp } from './state.ts';
import { canonicalJson, sha256Hex, snowflake } from './util.ts';

const GENESIS = '0'.repeat(64);
const keys = new WeakMap<State, { privateKey: KeyObject; publicKey: string; keyId: string }>();

export function auditKey(state: State): { privateKey: KeyObject; publicKey: string; keyId: string } {
  let k = keys.get(state);
  if (!k) {
    const pair = generateKeyPairSync('ed25519');
    const jwk = pair.publicKey.export({ format: 'jwk' });
    const publicKey = String(jwk.x);
    k = { privateKey: pair.privateKey, publicKey, keyId: `audit-${sha256Hex(publicKey).slice(0, 12)}` };
    keys.set(state, k);
  }
  return k;
}

export function record(
  state: State,
  tenant: string,
  action: string,
  actor: string,
  resource: { type: string; id: string },
  idempotencyKey?: string,
): void {
  const chain = state.audit.get(tenant) ?? [];
  state.audit.set(tenant, chain);
  const prevDigest = chain.at(-1)?.digest ?? GENESIS;
  const body = {
    seq: chain.length + 1,
    id: snowflake(),
    at: stamp(state),
    action,
    actor,
    resource,
    ...(idempotencyKey ? { idempotencyKey } : {}),
  };
  const digest = sha256Hex(prevDigest + canonicalJson(body));
  chain.push({ ...body, prevDigest, digest } as AuditEntry);
}

/** The snake_case view of an entry (the digest input is the same canonical camelCase body either way). */
function snake(e: AuditEntry): Record<string, unknown> {
  const { idempotencyKey, prevDigest, ...rest } = e;
  return { ...rest, ...(idempotencyKey ? { idempotency_key: idempotencyKey } : {}), prev_digest: prevDigest };
}

function intParam(call: Call, name: string, min: number, max: number): number | undefined {
  const raw = call.url.searchParams.get(name);
  if (raw === null) return undefined;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ApiError('invalid_request', `${name} must be an integer from ${min} to ${max}`);
  }
  return Number(raw);
}

/** GET /audit-log?limit=&after= (oldest first) or ?limit=&before= (newest first, when so configured). */
export function auditLog(call: Call): void {
  const tenant = call.tenant ?? '';
  const chain = call.state.audit.get(tenant) ?? [];
  const limit =
    intParam(call, 'limit', 1, call.state.options.auditMaxLimit) ?? Math.min(50, call.state.options.auditMaxLimit);
  const newest = call.state.options.auditNewestFirst;
  const mark = intParam(call, newest ? 'before' : 'after', 0, 1e9);
  let page: AuditEntry[];
  if (newest) {
    const upTo = mark === undefined ? chain.length : Math.min(mark - 1, chain.length);
    page = chain.slice(Math.max(0, upTo - limit), Math.max(0, upTo)).reverse();
  } else page = chain.slice(mark ?? 0, (mark ?? 0) + limit);
  const last = page.at(-1);
  const more = last !== undefined && (newest ? last.seq > 1 : last.seq < chain.length);
  const next = more ? `/api/public/v1/audit-log?limit=${limit}&${newest ? 'before' : 'after'}=${last.seq}` : null;
  const head = chain.at(-1);
  const k = auditKey(call.state);
  const headSeq = head?.seq ?? 0;
  const headDigest = head?.digest ?? GENESIS;
  const signed = `linden-audit-v1\n${tenant}\n${headSeq}\n${headDigest}`;
  const proof = {
    type: 'signed-running-digest',
    digestAlgorithm: 'sha256',
    chaining:
      'digest_n = sha256_hex(digest_{n-1} + canonical_json(entry without digest, prevDigest)); digest_0 = 64 zeros',
    head: { tenant, seq: headSeq, digest: headDigest },
    signatureAlgorithm: 'Ed25519',
    signedText: 'linden-audit-v1\\n{tenant}\\n{seq}\\n{digest}',
    signature: edSign(null, Buffer.from(signed), k.privateKey).toString('base64url'),
    keyId: k.keyId,
    publicKey: k.publicKey,
  };
  // The "next-after" choice shows only the keyset value to send back (as ?after=, or ?before= newest first).
  const byField = call.state.options.auditPaging === 'next-after';
  const paging = byField ? { [newest ? 'nextBefore' : 'nextAfter']: more ? last.seq : null } : { next };
  const headers: Record<string, string> = next && !byField ? { link: `<${next}>; rel="next"` } : {};
  ok(
    call,
    {
      tenant,
      order: newest ? 'newest-first' : 'oldest-first',
      count: page.length,
      entries: call.state.options.auditSnakeCase ? page.map(snake) : page,
      ...paging,
      proof,
    },
    {},
    headers,
  );
}
