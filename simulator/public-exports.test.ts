import { describe, expect, it } from 'vitest';
import * as ncs from './index.ts';

describe('package entry (ncs-sandbox)', () => {
  it('exports the webhook signature and audit verification pieces', () => {
    const header = ncs.signWebhook('{}', 'whsec_x', 1_767_225_600);
    expect(ncs.verifyWebhook('{}', header, 'whsec_x', { now: 1_767_225_600 })).toEqual({
      ok: true,
      timestamp: 1_767_225_600,
    });
    expect(ncs.DEFAULT_SIGNATURE_HEADER).toBe('NCS-Signature');
    expect(ncs.canonicalJson({ b: 1, a: 2 })).toBe('{"a":2,"b":1}');
    expect(ncs.verifyAuditRange([], null)).toMatchObject({ ok: false, reason: 'malformed_proof' });
    expect(ncs.GENESIS_HASH).toMatch(/^0{64}$/);
    expect(ncs.STREAM_DEFAULTS.retention).toBe(10_000);
  });
});
