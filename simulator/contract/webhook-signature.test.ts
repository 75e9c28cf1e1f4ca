import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SIGNATURE_HEADER, parseSignatureHeader, signWebhook, verifyWebhook } from './webhook-signature.ts';

const secret = 'whsec_sandbox_0123456789';
const body = '{"id":"evt_1","type":"connection.created","data":{"name":"Café Ø"}}';
const t = 1_767_225_600;
const hex = (b: string, s = secret, ts = t) => createHmac('sha256', s).update(`${ts}.${b}`).digest('hex');

describe('signWebhook', () => {
  it('is t=<t>,v1=<lowercase hex HMAC-SHA256 over "<t>.<raw body>">', () => {
    expect(signWebhook(body, secret, t)).toBe(`t=${t},v1=${hex(body)}`);
    expect(signWebhook(body, secret, t)).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    // A known answer, computed independently (RFC 4231-style fixed inputs).
    expect(signWebhook('{}', 'key', 0)).toBe(`t=0,v1=${createHmac('sha256', 'key').update('0.{}').digest('hex')}`);
  });
  it('signs bytes and the same text identically, and refuses bad input', () => {
    expect(signWebhook(Buffer.from(body, 'utf8'), secret, t)).toBe(signWebhook(body, secret, t));
    expect(() => signWebhook(body, '', t)).toThrow(TypeError);
    expect(() => signWebhook(body, secret, -1)).toThrow(RangeError);
    expect(() => signWebhook(body, secret, 1.5)).toThrow(RangeError);
  });
  it('names the simulator header', () => {
    expect(DEFAULT_SIGNATURE_HEADER).toBe('NCS-Signature');
  });
});

describe('verifyWebhook', () => {
  const header = signWebhook(body, secret, t);
  const at = (now: number, h = header, opts = {}) => verifyWebhook(body, h, secret, { now, ...opts });

  it('accepts a fresh genuine signature', () => {
    expect(at(t)).toEqual({ ok: true, timestamp: t });
    expect(at(t + 300)).toEqual({ ok: true, timestamp: t });
    expect(at(t - 300)).toEqual({ ok: true, timestamp: t });
  });
  it('rejects beyond the tolerance: stale and future', () => {
    expect(at(t + 301)).toEqual({ ok: false, reason: 'stale' });
    expect(at(t + 300.5)).toEqual({ ok: false, reason: 'stale' });
    expect(at(t - 301)).toEqual({ ok: false, reason: 'future' });
    expect(at(t + 1_000, header, { toleranceSeconds: 2_000 })).toEqual({ ok: true, timestamp: t });
    expect(at(t + 1, header, { toleranceSeconds: 0 })).toEqual({ ok: false, reason: 'stale' });
  });
  it('uses the real time by default', () => {
    const now = Math.floor(Date.now() / 1000);
    expect(verifyWebhook(body, signWebhook(body, secret, now), secret).ok).toBe(true);
    expect(verifyWebhook(body, signWebhook(body, secret, now - 3_600), secret)).toEqual({ ok: false, reason: 'stale' });
  });
  it('rejects a changed body, a wrong secret or a changed timestamp as mismatch', () => {
    expect(verifyWebhook(`${body} `, header, secret, { now: t })).toEqual({ ok: false, reason: 'mismatch' });
    expect(verifyWebhook(body, header, `${secret}x`, { now: t })).toEqual({ ok: false, reason: 'mismatch' });
    expect(at(t, header.replace(`t=${t}`, `t=${t + 1}`))).toEqual({ ok: false, reason: 'mismatch' });
    // A forged stale header says mismatch, not stale: time is only judged for genuine signatures.
    expect(at(t + 10_000, `t=${t},v1=${'0'.repeat(64)}`)).toEqual({ ok: false, reason: 'mismatch' });
  });
  it('accepts when any of several v1 values matches, ignores other schemes and whitespace', () => {
    expect(at(t, `t=${t},v1=${'a'.repeat(64)},v1=${hex(body)}`).ok).toBe(true);
    expect(at(t, `v0=abc, t=${t} ,  v1 = ${hex(body)}  , v2=zz`).ok).toBe(true);
    expect(at(t, `t=${t},v1=${hex(body).toUpperCase()}`).ok).toBe(true);
    expect(at(t, `t=${t},v1=${'a'.repeat(64)},v1=${'b'.repeat(64)}`)).toEqual({ ok: false, reason: 'mismatch' });
  });
  it.each([
    ['empty', ''],
    ['no t', `v1=${hex(body)}`],
    ['no v1', `t=${t}`],
    ['only other schemes', `t=${t},v0=${hex(body)}`],
    ['two t', `t=${t},t=${t},v1=${hex(body)}`],
    ['t not digits', `t=-5,v1=${hex(body)}`],
    ['t fractional', `t=${t}.5,v1=${hex(body)}`],
    ['short v1', `t=${t},v1=${hex(body).slice(2)}`],
    ['not hex', `t=${t},v1=${'g'.repeat(64)}`],
    ['part without =', `t=${t},v1,v1=${hex(body)}`],
    ['garbage', 'Bearer abc'],
  ])('says malformed for %s', (_name, h) => {
    expect(at(t, h)).toEqual({ ok: false, reason: 'malformed' });
  });
  it('says malformed for a missing header and refuses a bad secret or tolerance', () => {
    expect(verifyWebhook(body, undefined, secret, { now: t })).toEqual({ ok: false, reason: 'malformed' });
    expect(verifyWebhook(body, null, secret, { now: t })).toEqual({ ok: false, reason: 'malformed' });
    expect(() => verifyWebhook(body, header, '', { now: t })).toThrow(TypeError);
    expect(() => verifyWebhook(body, header, secret, { toleranceSeconds: -1 })).toThrow(RangeError);
  });
  it('round-trips for any body, secret and time inside the window', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.string({ minLength: 1 }),
        fc.integer({ min: 0, max: 4_000_000_000 }),
        fc.integer({ min: -300, max: 300 }),
        (b, s, ts, skew) => {
          expect(verifyWebhook(b, signWebhook(b, s, ts), s, { now: ts + skew })).toEqual({ ok: true, timestamp: ts });
          expect(verifyWebhook(`${b}!`, signWebhook(b, s, ts), s, { now: ts }).ok).toBe(false);
        },
      ),
    );
  });
});

describe('parseSignatureHeader', () => {
  it('returns the timestamp and the lowercased v1 values', () => {
    expect(parseSignatureHeader(`t=5,v1=${'A'.repeat(64)}`)).toEqual({ t: 5, v1: ['a'.repeat(64)] });
    expect(parseSignatureHeader('x'.repeat(5000))).toBeUndefined();
  });
});
