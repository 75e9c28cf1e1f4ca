import { describe, expect, it } from 'vitest';
import { signWebhook } from '../../simulator/contract/webhook-signature.ts';
import { SIGNATURE_FORM } from './webhooks-signature.ts';

describe('the signature header form', () => {
  const value = signWebhook('{"id":"evt_1"}', 'whsec_test', 1_800_000_000);
  const hex = value.split('v1=')[1] ?? '';
  it('is exactly t=<unix-seconds>,v1=<64 lowercase hex>', () => {
    expect(SIGNATURE_FORM.test(value)).toBe(true);
  });
  it('is not the parts in another order, upper-case hex or another name', () => {
    expect(SIGNATURE_FORM.test(`v1=${hex},t=1800000000`)).toBe(false);
    expect(SIGNATURE_FORM.test(`t=1800000000,v1=${hex.toUpperCase()}`)).toBe(false);
    expect(SIGNATURE_FORM.test(`T=1800000000,V1=${hex}`)).toBe(false);
  });
  it('is not the form with whitespace or further parts (one exact form: no rotation is shown)', () => {
    expect(SIGNATURE_FORM.test(`t=1800000000, v1=${hex}`)).toBe(false);
    expect(SIGNATURE_FORM.test(` ${value}`)).toBe(false);
    expect(SIGNATURE_FORM.test(`${value},v1=${'0'.repeat(64)}`)).toBe(false);
    expect(SIGNATURE_FORM.test(`${value},v0=${'0'.repeat(64)}`)).toBe(false);
  });
});
