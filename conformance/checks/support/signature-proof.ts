import { constants, createPublicKey, type JsonWebKey, type KeyObject, verify } from 'node:crypto';
import { canonicalJson } from '../../../simulator/contract/canonical-json.ts';

// A signature as an audit log's proof (a signed chain head or tree head, a signed page): the interface shows
// no proof format, so where it is, what it signs and with which key are the deployment's. The kit finds a
// signature by its name, the public key beside it (a JWK, a JWK set, PEM, a raw Ed25519 key) or in the
// profile, and the signed text among the common ones: a value beside the signature (the head hash as
// written, or its bytes), the object that holds it without the signature, as canonical or as served JSON.

type Obj = Record<string, unknown>;

/** A signature found in an answer: where, its text, and the object that holds it. */
export interface FoundSignature {
  /** e.g. `data.proof.signature`; array positions as `[]`, so one kind of signature has one shape. */
  shape: string;
  path: string;
  value: string;
  holder: Obj;
  key: string;
}

const SIGNATURE =
  /^(?:(?:head|tree[-_]?head|root|page|proof|entry|chain|checkpoint)[-_]?)?(?:signature|sig|jws|h?mac)$/i;
const KEYISH = /^(?:public[-_]?key(?:[-_]?jwk|[-_]?pem)?|jwk|jwks|keys|kid|key[-_]?id)$/i;
/**
 * Whether a found signature is a keyed MAC (named so, or beside an HS256/HMAC algorithm): verified only with
 * the deployment's secret, never from outside.
 * @example isMac({ key: 'signature', holder: { alg: 'HS256' } }) // true
 */
export function isMac(found: Pick<FoundSignature, 'key' | 'holder'>): boolean {
  const alg = Object.entries(found.holder).find(([k]) => ALGORITHM.test(k))?.[1];
  return /mac$/i.test(found.key) || (typeof alg === 'string' && /^(?:HS\d+|hmac)/i.test(alg));
}

/** The signature's algorithm beside it: signed with the rest by some, added after signing by others. */
const ALGORITHM = /^(?:alg|algorithm|signature[-_]?alg(?:orithm)?)$/i;

/**
 * Signatures anywhere in an answer's data (at most `max`), by their field's name.
 * @example findSignatures({ proof: { head: 'ab', signature: 'c2ln' } }) // [{ path: 'data.proof.signature', … }]
 */
export function findSignatures(data: unknown, max = 50): FoundSignature[] {
  const out: FoundSignature[] = [];
  const walk = (v: unknown, path: string, shape: string, depth: number) => {
    if (out.length >= max || depth > 5 || !v || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (const [i, x] of v.entries()) walk(x, `${path}[${i}]`, `${shape}[]`, depth + 1);
      return;
    }
    for (const [k, x] of Object.entries(v as Obj)) {
      const inner = x && typeof x === 'object' && !Array.isArray(x) ? (x as Obj).value : undefined;
      const text = typeof x === 'string' ? x : typeof inner === 'string' ? inner : undefined;
      if (SIGNATURE.test(k) && text && text.length >= 16)
        out.push({ shape: `${shape}.${k}`, path: `${path}.${k}`, value: text, holder: v as Obj, key: k });
      else walk(x, `${path}.${k}`, `${shape}.${k}`, depth + 1);
    }
  };
  walk(data, 'data', 'data', 0);
  return out;
}

function keyOf(v: unknown): KeyObject | undefined {
  try {
    if (typeof v === 'string' && v.includes('-----BEGIN PUBLIC KEY-----')) return createPublicKey(v);
    if (v && typeof v === 'object' && typeof (v as Obj).kty === 'string')
      return createPublicKey({ key: v as JsonWebKey, format: 'jwk' });
  } catch {
    // not a key node:crypto reads: left out
  }
  return undefined;
}

/** A raw key under a public-key name: 32 bytes (hex, base64) an Ed25519 key, longer ones DER SPKI. */
function rawKeyOf(v: string): KeyObject | undefined {
  const bytes = /^[0-9a-f]+$/i.test(v) && v.length % 2 === 0 ? Buffer.from(v, 'hex') : Buffer.from(v, 'base64');
  try {
    if (bytes.length === 32)
      return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: bytes.toString('base64url') }, format: 'jwk' });
    return createPublicKey({ key: bytes, format: 'der', type: 'spki' });
  } catch {
    return undefined;
  }
}

/**
 * Public keys an answer (or a profile) shows: JWKs, JWK sets, PEM, raw keys under a public-key name.
 * @example findKeys({ proof: { publicKeyJwk: { kty: 'OKP', crv: 'Ed25519', x: '…' } } }) // [KeyObject]
 */
export function findKeys(data: unknown): KeyObject[] {
  const out: KeyObject[] = [];
  const walk = (v: unknown, name: string, depth: number) => {
    if (depth > 6 || out.length >= 10) return;
    const key = keyOf(v) ?? (typeof v === 'string' && /public_?key/i.test(name) ? rawKeyOf(v) : undefined);
    if (key) out.push(key);
    else if (v && typeof v === 'object')
      for (const [k, x] of Array.isArray(v) ? v.entries() : Object.entries(v)) walk(x, String(k), depth + 1);
  };
  walk(data, '', 0);
  return out;
}

/** A signature's bytes as it may be written (hex, base64, base64url), or a JWS compact form's parts. */
function decodings(value: string): { bytes: Buffer; jws?: { protectedHeader: string; payload: string } }[] {
  const jws = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]*)\.([A-Za-z0-9_-]+)$/.exec(value);
  if (jws)
    return [
      {
        bytes: Buffer.from(jws[3] as string, 'base64url'),
        jws: { protectedHeader: jws[1] as string, payload: jws[2] as string },
      },
    ];
  const out = [];
  if (/^[0-9a-f]+$/i.test(value) && value.length % 2 === 0) out.push({ bytes: Buffer.from(value, 'hex') });
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) out.push({ bytes: Buffer.from(value, 'base64') });
  return out;
}

/** The signed texts the kit tries for a signature, by name (the name is the scheme: the same for every page). */
export function signedInputs(found: FoundSignature, declared?: (holder: Obj) => string): [string, Buffer][] {
  if (declared) return [['the declared input', Buffer.from(declared(found.holder), 'utf8')]];
  // A JWS in compact form with its payload carries what it signs.
  const attached = /^[A-Za-z0-9_-]+\.([A-Za-z0-9_-]+)\.[A-Za-z0-9_-]+$/.exec(found.value)?.[1];
  if (attached) return [["the JWS's own payload", Buffer.from(attached, 'base64url')]];
  const out: [string, Buffer][] = [];
  for (const [k, v] of Object.entries(found.holder)) {
    // An object beside the signature (`payload`, `signed`, `claims`): what it signs, as canonical or served JSON.
    if (k !== found.key && !KEYISH.test(k) && v && typeof v === 'object' && !Array.isArray(v)) {
      out.push([`${k} as canonical JSON`, Buffer.from(canonicalJson(v), 'utf8')]);
      out.push([`${k} as served JSON`, Buffer.from(JSON.stringify(v), 'utf8')]);
      continue;
    }
    if (k === found.key || KEYISH.test(k) || ALGORITHM.test(k) || typeof v !== 'string' || v.length > 4096) continue;
    out.push([`${k} as text`, Buffer.from(v, 'utf8')]);
    if (/^[0-9a-f]+$/i.test(v) && v.length % 2 === 0) out.push([`${k}'s bytes (hex)`, Buffer.from(v, 'hex')]);
    else if (/^[A-Za-z0-9+/_-]{16,}={0,2}$/.test(v)) out.push([`${k}'s bytes (base64)`, Buffer.from(v, 'base64')]);
  }
  const rest = Object.fromEntries(Object.entries(found.holder).filter(([k]) => k !== found.key));
  const bare = Object.fromEntries(Object.entries(rest).filter(([k]) => !KEYISH.test(k)));
  const noAlg = Object.fromEntries(Object.entries(bare).filter(([k]) => !ALGORITHM.test(k)));
  for (const [name, o] of [
    ['', rest],
    [' without its key fields', bare],
    ...(Object.keys(noAlg).length < Object.keys(bare).length
      ? ([[' without its key and algorithm fields', noAlg]] as const)
      : []),
  ] as const) {
    out.push([`the canonical JSON of its object${name}`, Buffer.from(canonicalJson(o), 'utf8')]);
    out.push([`the JSON of its object as served${name}`, Buffer.from(JSON.stringify(o), 'utf8')]);
  }
  return out;
}

/**
 * Whether `signature` (as written) verifies over `input` with `key`, by the key's own algorithm (Ed25519,
 * ECDSA in either encoding with the curve's hash, RSA PKCS#1 v1.5 or PSS); a JWS compact signature over its
 * protected header and its payload (a detached one's payload is the input).
 * @example signatureHolds(key, sig, Buffer.from(head)) // true
 */
export function signatureHolds(key: KeyObject, signature: string, input: Buffer): boolean {
  for (const { bytes, jws } of decodings(signature)) {
    const payload = jws?.payload ? jws.payload : input.toString('base64url');
    // An attached JWS carries its own payload: it verifies only as the text tried (the candidate's base64url).
    if (jws?.payload && jws.payload !== input.toString('base64url')) continue;
    const data = jws ? Buffer.from(`${jws.protectedHeader}.${payload}`, 'ascii') : input;
    if (verifiesWith(key, data, bytes)) return true;
  }
  return false;
}

function verifiesWith(key: KeyObject, data: Buffer, sig: Buffer): boolean {
  const attempt = (f: () => boolean) => {
    try {
      return f();
    } catch {
      return false;
    }
  };
  const type = key.asymmetricKeyType;
  if (type === 'ed25519' || type === 'ed448') return attempt(() => verify(null, data, key, sig));
  const hashes = ['sha256', 'sha384', 'sha512'];
  if (type === 'ec')
    return hashes.some((h) =>
      (['ieee-p1363', 'der'] as const).some((dsaEncoding) => attempt(() => verify(h, data, { key, dsaEncoding }, sig))),
    );
  if (type === 'rsa' || type === 'rsa-pss')
    return hashes.some(
      (h) =>
        attempt(() => verify(h, data, key, sig)) ||
        attempt(() =>
          verify(
            h,
            data,
            { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_AUTO },
            sig,
          ),
        ),
    );
  return false;
}
