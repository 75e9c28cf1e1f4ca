import { describe, expect, it } from 'vitest';
import { signWebhook } from '../../../simulator/contract/webhook-signature.ts';
import { webhookVerify } from './webhook-signing.ts';

const SECRET = 'whsec_cli_unit';
const body = Buffer.from('{"id":"evt_1"}\r\n', 'utf8');
const T = 1_767_225_600;
const header = signWebhook(body, SECRET, T);
const noEnv = {};

describe('ncs webhook verify', () => {
  it('verifies: 0 with the age when valid', () => {
    expect(webhookVerify({ secret: SECRET, header, now: String(T + 100) }, body, noEnv)).toEqual({
      exitCode: 0,
      message: `valid: signature matches, t=${T} (100 s ago, tolerance 300 s)`,
    });
    expect(webhookVerify({ secret: SECRET, header }, body, noEnv, (T - 20) * 1000).message).toMatch(/20 s ahead/);
    expect(webhookVerify({ header }, body, { NCS_WEBHOOK_SECRET: SECRET }, T * 1000).exitCode).toBe(0);
  });

  it('verifies: 1 with reason and explanation otherwise', () => {
    const v = (o: Partial<Parameters<typeof webhookVerify>[0]>, b: Uint8Array = body) =>
      webhookVerify({ secret: SECRET, header, now: String(T), ...o }, b, noEnv);
    expect(v({}, Buffer.concat([body, Buffer.from(' ')]))).toMatchObject({
      exitCode: 1,
      message: expect.stringMatching(/^invalid: mismatch: .*byte-for-byte/),
    });
    expect(v({ secret: 'other' }).message).toMatch(/^invalid: mismatch/);
    expect(v({ now: String(T + 400) })).toEqual({
      exitCode: 1,
      message: `invalid: stale: the signature is genuine but its timestamp is older than the tolerance allows (t=${T}, 400 s off, tolerance 300 s)`,
    });
    expect(v({ now: String(T + 400), tolerance: '500' }).exitCode).toBe(0);
    expect(v({ now: String(T - 400) }).message).toMatch(/^invalid: future: .*400 s off/);
    expect(v({ header: 'v1=abc' }).message).toMatch(/^invalid: malformed: the header is not of the form/);
    expect(() => v({ tolerance: 'lots' })).toThrow(/--tolerance/);
    expect(() => v({ now: 'later' })).toThrow(/--now/);
  });
});
