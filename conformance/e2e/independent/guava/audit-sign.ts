// The optional signed chain head: the team signs the newest digest (its hex text) with an Ed25519 key
// (Crypt::PK::Ed25519), so a reader holding the public key can tell the head was not rewritten along
// with the whole chain. One key pair per running deployment, generated at first use, never stored.
import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import type { Rec, Store } from './state.ts';

const keys = new WeakMap<Store, { privateKey: KeyObject; publicPem: string }>();

function keyPair(store: Store) {
  let pair = keys.get(store);
  if (!pair) {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    pair = { privateKey, publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
    keys.set(store, pair);
  }
  return pair;
}

/** The proof's signature fields over `head`, or none when the deployment does not sign. */
export function signHead(store: Store, head: string): Rec {
  if (!store.options.auditSigned || head === '') return {};
  const pair = keyPair(store);
  return {
    signature_algorithm: 'Ed25519',
    signature: sign(null, Buffer.from(head, 'utf8'), pair.privateKey).toString('base64'),
    public_key: pair.publicPem,
  };
}
