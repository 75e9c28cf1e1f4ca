// Verifies linden's audit log of a tenant, the way the README describes it: walks every page (oldest first,
// ?after=), recomputes the running digest entry by entry and checks the Ed25519 signature of the head.
// npx node conformance/e2e/independent/linden/verify-audit.ts <baseUrl> <tenant> <token>
import { createPublicKey, verify } from 'node:crypto';
import { canonicalJson, sha256Hex } from './util.ts';

interface Proof {
  head: { tenant: string; seq: number; digest: string };
  signature: string;
  publicKey: string;
}

/** Recomputes the chain of `entries` (oldest first, from seq 1) and checks the proof's signature. */
export function verifyAuditLog(entries: Record<string, unknown>[], proof: Proof): { ok: boolean; problem?: string } {
  let prev = '0'.repeat(64);
  for (const e of entries) {
    // Either spelling of the served entry (camelCase, or the snake_case choice) maps back to the signed body.
    const { digest, prevDigest, prev_digest, idempotency_key, ...rest } = e;
    const body = idempotency_key ? { ...rest, idempotencyKey: idempotency_key } : rest;
    if ((prevDigest ?? prev_digest) !== prev) return { ok: false, problem: `entry ${e.seq}: prevDigest does not link` };
    const expected = sha256Hex(prev + canonicalJson(body));
    if (digest !== expected) return { ok: false, problem: `entry ${e.seq}: digest differs` };
    prev = expected;
  }
  if (entries.length !== proof.head.seq || prev !== proof.head.digest)
    return { ok: false, problem: 'the chain does not end at the signed head' };
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: proof.publicKey }, format: 'jwk' });
  const text = `linden-audit-v1\n${proof.head.tenant}\n${proof.head.seq}\n${proof.head.digest}`;
  const good = verify(null, Buffer.from(text), key, Buffer.from(proof.signature, 'base64url'));
  return good ? { ok: true } : { ok: false, problem: 'the signature of the head does not verify' };
}

async function main(baseUrl: string, tenant: string, token: string): Promise<void> {
  const entries: Record<string, unknown>[] = [];
  let proof: Proof | undefined;
  let next: string | null = '/api/public/v1/audit-log?limit=200';
  while (next) {
    const res = await fetch(new URL(next, baseUrl), {
      headers: { authorization: `Bearer ${token}`, 'x-service-tenant': tenant },
    });
    const body = (await res.json()) as {
      data: { entries: Record<string, unknown>[]; next?: string | null; proof: Proof };
    };
    entries.push(...body.data.entries);
    proof = body.data.proof;
    next = body.data.next ?? null;
  }
  if (!proof) throw new Error('no proof');
  const result = verifyAuditLog(entries, proof);
  console.log(
    result.ok ? `verified ${entries.length} entries up to ${proof.head.digest}` : `NOT verified: ${result.problem}`,
  );
  process.exitCode = result.ok ? 0 : 1;
}

const [baseUrl, tenant, token] = process.argv.slice(2);
if (baseUrl && tenant && token) await main(baseUrl, tenant, token);
