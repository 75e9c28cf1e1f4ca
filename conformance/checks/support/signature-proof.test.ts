import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../simulator/contract/canonical-json.ts';
import { findKeys, findSignatures, signatureHolds, signedInputs } from './signature-proof.ts';

const ed = generateKeyPairSync('ed25519');
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const head = 'a3f1'.repeat(16);

/** Whether some key of the answer verifies some signed text the kit tries; the text's name, if so. */
const scheme = (data: unknown) => {
  const keys = findKeys(data);
  const found = findSignatures(data)[0];
  if (!found) return undefined;
  return signedInputs(found).find(([, input]) => keys.some((k) => signatureHolds(k, found.value, input)))?.[0];
};

describe('a signature as the audit proof, found and verified whatever its form', () => {
  it('verifies an Ed25519 signature over the head as text with the JWK beside it', () => {
    const data = {
      entries: [],
      proof: {
        head,
        signature: sign(null, Buffer.from(head), ed.privateKey).toString('base64url'),
        publicKeyJwk: ed.publicKey.export({ format: 'jwk' }),
      },
    };
    expect(findSignatures(data).map((s) => s.path)).toEqual(['data.proof.signature']);
    expect(scheme(data)).toBe('head as text');
    // One bit of the head changed: no scheme verifies.
    expect(scheme({ ...data, proof: { ...data.proof, head: `b${head.slice(1)}` } })).toBeUndefined();
  });

  it('verifies ECDSA (P-1363 or DER) over the head bytes and RSA over canonical JSON, keys as PEM or a JWK set', () => {
    const ecData = {
      treeHead: { rootHash: head, size: 3 },
      sig: sign('sha256', Buffer.from(head, 'hex'), { key: ec.privateKey, dsaEncoding: 'der' }).toString('hex'),
      keys: [ec.publicKey.export({ format: 'jwk' })],
    };
    expect(findSignatures(ecData)).toHaveLength(1);
    // The signature's holder is the answer's data: its object without the signature and the key set is signed.
    const holder = { treeHead: ecData.treeHead };
    const rsaSig = sign('sha256', Buffer.from(canonicalJson(holder)), rsa.privateKey).toString('base64');
    const rsaData = { ...holder, signature: rsaSig, publicKey: rsa.publicKey.export({ format: 'pem', type: 'spki' }) };
    expect(scheme(rsaData)).toBe('the canonical JSON of its object without its key fields');
    const onHead = { proof: { ...ecData.treeHead, sig: ecData.sig }, keys: ecData.keys };
    expect(scheme(onHead)).toBe("rootHash's bytes (hex)");
  });

  it('reads a JWS (detached, or with its own payload) and a raw Ed25519 key', () => {
    const protectedHeader = Buffer.from(JSON.stringify({ alg: 'EdDSA' })).toString('base64url');
    const payload = Buffer.from(head).toString('base64url');
    const jwsSig = sign(null, Buffer.from(`${protectedHeader}.${payload}`), ed.privateKey).toString('base64url');
    const raw = (ed.publicKey.export({ format: 'jwk' }) as { x: string }).x;
    const detached = { head, jws: `${protectedHeader}..${jwsSig}`, publicKey: raw };
    expect(scheme(detached)).toBe('head as text');
    const attached = { head: 'other', jws: `${protectedHeader}.${payload}.${jwsSig}`, publicKey: raw };
    expect(scheme(attached)).toBe("the JWS's own payload");
  });

  it('finds no key in an HMAC-signed answer and no signature under other names', () => {
    expect(findKeys({ proof: { hmac: 'ab'.repeat(32), keyId: 'k1' } })).toEqual([]);
    expect(findSignatures({ proof: { hash: 'ab'.repeat(32), signedBy: 'ops' } })).toEqual([]);
    // Per-entry signatures share one shape, so one scheme is judged over all of them.
    const shapes = findSignatures({ entries: [{ signature: 'x'.repeat(20) }, { signature: 'y'.repeat(20) }] });
    expect(shapes.map((s) => s.shape)).toEqual(['data.entries[].signature', 'data.entries[].signature']);
  });
});
