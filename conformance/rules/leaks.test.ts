import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodedNeedles } from './encoded-needles.ts';
import { bearerOf, encodedRuns, findLeaks, mayRevealAny, revealsSecret, unpredictablePart } from './leaks.ts';

describe('findLeaks', () => {
  it('finds stack traces and paths of common runtimes', () => {
    const samples = [
      'Error: boom\n    at handler (/srv/app/handlers/catalog.ts:12:5)',
      'at Object.<anonymous> (file:///opt/api/index.mjs:3:9)',
      'at node:internal/process/task_queues:95:5',
      'Traceback (most recent call last):\n  File "app.py", line 3',
      'at com.example.Api.handle(Api.java:42)',
      'goroutine 1 [running]:',
      "TypeError: Cannot read properties of undefined (reading 'x')",
      'failed in /home/deploy/service/src/routes.js',
      'C:\\inetpub\\api\\web.config',
      'require stack: node_modules/express/lib/router.js',
    ];
    for (const text of samples) expect(findLeaks(text, []), text).not.toEqual([]);
  });

  it('leaves ordinary error texts alone', () => {
    const clean = [
      'body field connectorId must be at most 120 characters long.',
      'The access harbour-old expired at 2026-07-01T10:00:00.000Z.',
      'Check the request against the published description (GET /api/public/v1/openapi.json).',
      'GET /api/public/v1 lists every route of the interface.',
      'Wait for the Retry-After seconds, then retry at 10:00:05.',
    ];
    for (const text of clean) expect(findLeaks(text, []), text).toEqual([]);
  });

  it('finds secrets sent with the request', () => {
    expect(
      findLeaks('{"detail":"token ncs_at_abc123 unknown"}', [{ value: 'ncs_at_abc123', what: 'the bearer token' }]),
    ).toEqual(['the bearer token']);
    expect(bearerOf({ Authorization: 'Bearer abc.def' })).toBe('abc.def');
    expect(bearerOf({ authorization: 'Basic xyz' })).toBeUndefined();
  });
});

describe('mayRevealAny: one scan before the per-secret search', () => {
  const secrets = ['ncs_at_0123456789abcdefghijklmnop', 'hk-sandbox-secret-5f2c9a7e1b3d4c60', 'a.b*c+d?', 'short1'];
  const pieces = secrets.flatMap((s) => [s, s.slice(0, 10), s.slice(5, 21), s.slice(8, 24), s.slice(3, 9)]);
  it('is true whenever revealsSecret finds any of the secrets (texts made of their pieces)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom(...pieces), fc.string({ maxLength: 6 })), { maxLength: 8 }),
        (parts) => {
          const text = parts.join('');
          const revealed = secrets.some((s) => revealsSecret(text, s));
          if (revealed) expect(mayRevealAny(text, secrets)).toBe(true);
        },
      ),
      { numRuns: 2000, seed: 3 },
    );
  });
  it('is false for a text holding no piece of any secret, and for no secrets', () => {
    expect(mayRevealAny('{"ok":true,"data":{"count":3}}', secrets)).toBe(false);
    expect(mayRevealAny('anything', [])).toBe(false);
  });
});

describe('a secret sent along in an encoding', () => {
  const token = 'ncs_at_0123456789abcdefghijklmnopqrstuv';
  it('is found in base64, base64url and hex, after a prefix too', () => {
    for (const encoded of [
      Buffer.from(`tok:${token}`).toString('base64'),
      Buffer.from(`session=${token};`).toString('base64url'),
      Buffer.from(token).toString('hex'),
      `zz${Buffer.from(token).toString('base64')}`,
    ]) {
      const text = `x-trace-context: ${encoded}`;
      expect(revealsSecret(text, token), encoded).toBe(true);
      expect(mayRevealAny(text, [token]), encoded).toBe(true);
      expect(findLeaks(text, [{ value: token, what: 'the token' }]), encoded).toEqual(['the token']);
    }
  });
  it('mayRevealAny finds every encoded reveal revealsSecret finds (any prefix, piece, encoding, hex case)', () => {
    const secrets = [token, 'whsec_9f8e7d6c5b4a39281706f5e4', 'short-secret'];
    const encodings = ['base64', 'base64url', 'hex', 'HEX'] as const;
    fc.assert(
      fc.property(
        fc.constantFrom(...secrets),
        fc.nat(40),
        fc.nat(40),
        fc.string({ maxLength: 5 }),
        fc.string({ maxLength: 5 }),
        fc.constantFrom(...encodings),
        fc.string({ maxLength: 4 }),
        (secret, from, length, before, after, encoding, around) => {
          const piece = secret.slice(from, from + Math.max(length, 6));
          const raw = Buffer.from(`${before}${piece}${after}`, 'latin1');
          const encoded = encoding === 'HEX' ? raw.toString('hex').toUpperCase() : raw.toString(encoding);
          const text = `${around}${encoded} ${around}`;
          if (secrets.some((s) => revealsSecret(text, s))) expect(mayRevealAny(text, secrets)).toBe(true);
        },
      ),
      { numRuns: 3000, seed: 11 },
    );
  });
  it('is not seen in other encoded values (ids, signatures, hashes)', () => {
    const text = `v1=${'ab'.repeat(32)} id=${Buffer.from('an unrelated identifier 1234567').toString('base64')}`;
    expect(revealsSecret(text, token)).toBe(false);
    expect(mayRevealAny(text, [token])).toBe(false);
  });
});

describe('encodedNeedles: the characters of an encoding that depend on the piece alone', () => {
  it('are found in the encoding of the piece after any prefix', () => {
    for (const prefix of ['', 'a', 'ab', 'abc', 'tok:']) {
      const text = Buffer.from(`${prefix}ncs_at_0`).toString('base64');
      expect(
        encodedNeedles('ncs_at_0').base64.some((n) => text.includes(n)),
        prefix,
      ).toBe(true);
    }
    expect(encodedNeedles('ncs_at_0')).toEqual({
      base64: ['bmNzX2F0Xz', '5jc19hdF8w', 'uY3NfYXRfM'],
      hex: ['6e63735f61745f30'],
    });
  });
});

describe('encodedRuns: the runs worth decoding, in one pass', () => {
  it('finds exactly what /[A-Za-z0-9+/_-]{22,}={0,2}/g finds', () => {
    const pieces = ['A', 'z', '9', '+', '/', '_', '-', '=', '==', ' ', '"', ':', 'é', '\u{1F600}', 'abcdefghijk'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 90 }), (parts) => {
        const text = parts.join('');
        expect(encodedRuns(text)).toEqual([...text.matchAll(/[A-Za-z0-9+/_-]{22,}={0,2}/g)].map((m) => m[0]));
      }),
      { numRuns: 3000, seed: 5 },
    );
  });
  it('takes a run at the very end and at most two equals signs', () => {
    expect(encodedRuns(`x ${'a'.repeat(22)}===`)).toEqual([`${'a'.repeat(22)}==`]);
    expect(encodedRuns('a'.repeat(21))).toEqual([]);
    expect(encodedRuns('a'.repeat(22))).toEqual(['a'.repeat(22)]);
  });
});

describe('a JWT: only its signature is secret', () => {
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const signature = Buffer.from('a signature no one writes without the key, 32 bytes long').toString('base64url');
  const jwt = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ scope: 'connections.read connections.write' })}.${signature}`;

  it('takes a piece of the claims found in unrelated base64 for a coincidence, the signature or the token for a reveal', () => {
    // The claims' base64 shares runs with any base64 of JSON about connections (poplar's Pub/Sub message.data).
    const claims = jwt.split('.')[1] ?? '';
    expect(revealsSecret(`{"data":"${claims.slice(2, 22)}"}`, jwt)).toBe(false);
    expect(revealsSecret(`{"data":"${signature.slice(4, 24)}"}`, jwt)).toBe(true);
    expect(revealsSecret(`token ${jwt}`, jwt)).toBe(true);
    expect(unpredictablePart(jwt)).toBe(signature);
    expect(unpredictablePart('ncs_at_0123456789abcdefghijklmnop')).toBe('ncs_at_0123456789abcdefghijklmnop');
  });
});
