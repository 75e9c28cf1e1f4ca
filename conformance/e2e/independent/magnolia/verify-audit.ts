// Verifies magnolia's audit proof from outside, with nothing but the public key endpoint:
//   npx node conformance/e2e/independent/magnolia/verify-audit.ts <ready-file.json> [tenant]
// 1. reads every page of GET /audit-log (limit/offset) and orders the entries by seq;
// 2. recomputes each entry's hash: sha256_hex(prev_hash + "\n" + canonical(entry without "hash")), the first
//    prev_hash being 64 zeros, and checks that every prev_hash is the hash of the entry before;
// 3. checks that data.proof.statement names the last entry (head_seq, head_hash) and that its Ed25519
//    signature over canonical(statement) verifies with the JWK of proof.key_id from proof.keys_path.
import { createHash, createPublicKey, type JsonWebKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AuditEntry } from './audit.ts';
import { GENESIS } from './audit.ts';
import { canonical } from './util.ts';

const ready = JSON.parse(readFileSync(process.argv[2] ?? '/tmp/magnolia.json', 'utf8')) as Record<string, string>;
const base = ready.baseUrl ?? '';
const tenant = process.argv[3] ?? ready.tenant ?? '';
const tokenAnswer = await fetch(`${base}/oauth/token`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({
    grant_type: 'client_credentials',
    client_id: ready.clientId,
    client_secret: ready.clientSecret,
    audience: 'https://api.magnolia.example/ncs',
  }),
});
const { access_token: token } = (await tokenAnswer.json()) as { access_token: string };

interface Proof {
  statement: { tenant: string; head_seq: number; head_hash: string; signed_at: string };
  signature: string;
  key_id: string;
  keys_path: string;
}
const entries: AuditEntry[] = [];
let proof: Proof | undefined;
for (let offset = 0; ; offset += 500) {
  const r = await fetch(`${base}/api/public/v1/audit-log?limit=500&offset=${offset}`, {
    headers: { authorization: `Bearer ${token}`, 'x-service-tenant': tenant },
  });
  const body = (await r.json()) as { data: { entries: AuditEntry[]; proof: Proof; next: string | null } };
  if (!r.ok) {
    console.error(`GET /audit-log answered ${r.status}: ${JSON.stringify(body)}`);
    process.exit(2);
  }
  entries.push(...body.data.entries);
  proof ??= body.data.proof;
  if (!body.data.next) break;
}
entries.sort((a, b) => a.seq - b.seq);

let prev = GENESIS;
for (const e of entries) {
  const { hash, ...rest } = e;
  const expected = createHash('sha256')
    .update(`${prev}\n${canonical(rest)}`)
    .digest('hex');
  if (e.prev_hash !== prev || hash !== expected) {
    console.error(
      `broken at seq ${e.seq}: prev_hash ${e.prev_hash === prev ? 'ok' : 'wrong'}, hash ${hash === expected ? 'ok' : 'wrong'}`,
    );
    process.exit(1);
  }
  prev = hash;
}
if (!proof) throw new Error('no proof in the answer');
const head = entries.at(-1);
if (proof.statement.head_seq !== (head?.seq ?? 0) || proof.statement.head_hash !== prev) {
  console.error('the signed head is not the last entry of the chain (entries written meanwhile? read again)');
  process.exit(1);
}
const jwks = (await (await fetch(`${base}${proof.keys_path}`)).json()) as { keys: (JsonWebKey & { kid: string })[] };
const jwk = jwks.keys.find((k) => k.kid === proof.key_id);
if (!jwk) throw new Error(`no key ${proof.key_id}`);
const ok = verify(
  null,
  Buffer.from(canonical(proof.statement)),
  createPublicKey({ key: jwk, format: 'jwk' }),
  Buffer.from(proof.signature, 'base64url'),
);
console.log(
  ok ? `valid: ${entries.length} entries, head ${prev.slice(0, 12)}… signed by ${proof.key_id}` : 'invalid signature',
);
process.exit(ok ? 0 : 1);
