import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhook } from '../../../simulator/contract/webhook-signature.ts';
import { type KeyProof, keyAtPath, keyLike, secretPaths, signingKeyOf, valueAt, withoutPath } from './signing-key.ts';

const KEY = 'whsec_0123456789abcdef0123';

describe('the signing key of a webhook creation answer (its fields are not shown)', () => {
  it('reads the declared field, a dotted path under data too', () => {
    const data = { id: 'wh_1', credentials: { signingKey: KEY } };
    expect(signingKeyOf(data, 'credentials.signingKey', true)).toMatchObject({
      found: true,
      secret: KEY,
      how: 'declared',
    });
    expect(signingKeyOf({ signingSecret: KEY }, 'signingSecret', false)).toMatchObject({ found: true, how: 'default' });
  });

  it('discovers the one field named like a secret or key when none is declared', () => {
    const data = { id: 'wh_1', url: 'http://127.0.0.1/x', credentials: { algorithm: 'HMAC-SHA256', signingKey: KEY } };
    expect(signingKeyOf(data, 'signingSecret', false)).toMatchObject({
      found: true,
      secret: KEY,
      path: 'credentials.signingKey',
      how: 'discovered',
    });
  });

  it('finds none (a reason to skip) when no field or several could be the key, and fails a declared one', () => {
    expect(signingKeyOf({ id: 'wh_1' }, 'signingSecret', false)).toMatchObject({ found: false, declared: false });
    const two = { secret: KEY, apiKey: `${KEY}x` };
    expect(signingKeyOf(two, 'signingSecret', false)).toMatchObject({ found: false });
    expect(signingKeyOf({ id: 'wh_1', idempotencyKey: 'ncs-conformance-key-0001' }, 'signingSecret', false).found).toBe(
      false,
    );
    expect(signingKeyOf({ credentials: {} }, 'credentials.signingKey', true)).toMatchObject({
      found: false,
      declared: true,
    });
  });

  it('finds the key by the delivery it signed, under any name or in a header, and proves it absent', () => {
    const body = '{"id":"evt_1"}';
    const header = signWebhook(body, KEY, 1_800_000_000);
    const proof = (headers: Record<string, string> = {}): KeyProof => ({
      signed: true,
      verifies: (k) => k.length > 0 && verifyWebhook(body, header, k, { now: 1_800_000_000 }).ok,
      headers,
    });
    expect(signingKeyOf({ id: 'wh_1', whsec: KEY }, 'signingSecret', false, proof())).toMatchObject({
      found: true,
      path: 'whsec',
      how: 'verified',
    });
    expect(signingKeyOf({ id: 'wh_1' }, 'signingSecret', false, proof({ 'x-webhook-key': KEY }))).toMatchObject({
      found: true,
      path: '(header x-webhook-key)',
    });
    // Signed deliveries, and nothing in the answer signs them: the key was not issued (a failure, not a skip).
    expect(signingKeyOf({ id: 'wh_1', url: 'http://127.0.0.1/r' }, 'signingSecret', false, proof())).toMatchObject({
      found: false,
      absent: true,
    });
    const unsigned: KeyProof = { signed: false, verifies: () => false };
    expect(signingKeyOf({ id: 'wh_1' }, 'signingSecret', false, unsigned)).toMatchObject({
      found: false,
      absent: false,
    });
  });

  it('leaves the key out of a copy at its path, the rest unchanged', () => {
    const data = { id: 'wh_1', credentials: { algorithm: 'HMAC-SHA256', signingKey: KEY } };
    expect(withoutPath(data, 'credentials.signingKey')).toEqual({
      id: 'wh_1',
      credentials: { algorithm: 'HMAC-SHA256' },
    });
    expect(withoutPath({ id: 'wh_1', signingSecret: KEY }, 'signingSecret')).toEqual({ id: 'wh_1' });
    expect(valueAt(data, 'credentials.signingKey')).toBe(KEY);
    expect(data.credentials.signingKey).toBe(KEY);
  });
});

describe('secretPaths (where an answer holds a value the run knows as a secret)', () => {
  it('finds the key wherever it is, and nothing else', () => {
    const data = { id: 'whk_1', signing: { key: 'whsec_abcdefghijklmnop', keyId: 'k1' }, url: 'http://x' };
    expect(secretPaths(data, ['whsec_abcdefghijklmnop', 'short'])).toEqual(['signing.key']);
    // Named like a key (and long enough to be one), it needs no introduction.
    expect(secretPaths(data, [])).toEqual(['signing.key']);
    expect(secretPaths({ id: 'whk_1', token: 'tk_abcdefghijklmnopqrs' }, ['tk_abcdefghijklmnopqrs'])).toEqual([
      'token',
    ]);
    expect(secretPaths({ id: 'whk_1', url: 'http://127.0.0.1:9/hook-receiver' }, [])).toEqual([]);
  });
});

describe('keyLike and keyAtPath (a key under a generic name, e.g. secret.value)', () => {
  const SPK = 'spk_wGYIuwpz3BE7GJbxVEq6dSryKkXH_9sMINhalNegyxE';
  const data = {
    id: 'wh_1',
    secret: {
      value: SPK,
      algorithm: 'HMAC-SHA256',
      note: 'Shown once. Store it now.',
      createdAt: '2026-11-27T05:52:20.5660000Z',
    },
  };

  it('takes a one-word value of key length in a generic field of an object named like a key, not its note or date', () => {
    expect(keyLike('secret.value', SPK)).toBe(true);
    expect(keyLike('secret.note', 'Shown once. Store it now.')).toBe(false);
    expect(keyLike('secret.createdAt', '2026-11-27T05:52:20.5660000Z')).toBe(false);
    expect(keyLike('signingKeyId', 'key_2026_07_rotation_01')).toBe(false);
    expect(keyLike('url', 'http://127.0.0.1:9/hook-receiver')).toBe(false);
    // Before: only a field named like a key counted, so spruce's secret.value was no candidate at all.
    expect(signingKeyOf(data, 'signingSecret', false)).toMatchObject({
      found: true,
      path: 'secret.value',
      how: 'discovered',
    });
    expect(secretPaths(data, [])).toEqual(['secret.value']);
  });

  it("leaves a text about the key out of a replay's comparison too (a replay withholding the key may say so)", () => {
    const first = { id: 'wh_1', signingKey: 'tmk_whsec_0123456789abcdef', signingKeyNotice: 'Store this key now.' };
    expect(secretPaths(first, [])).toEqual(['signingKey', 'signingKeyNotice']);
    expect(secretPaths({ id: 'wh_1', signingKeyId: 'key_2026_07_rotation_01' }, [])).toEqual([]);
  });

  it('reads the key at a found path in another answer, or in a header', () => {
    expect(keyAtPath(data, {}, 'secret.value')).toBe(SPK);
    expect(keyAtPath({ secret: { value: null } }, {}, 'secret.value')).toBeUndefined();
    expect(keyAtPath({}, { 'x-webhook-key': SPK }, '(header x-webhook-key)')).toBe(SPK);
  });
});
