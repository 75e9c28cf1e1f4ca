import { describe, expect, it } from 'vitest';
import { signWebhook } from '../../../simulator/contract/webhook-signature.ts';
import { formProblems, looksSigned } from './webhook-signature-form.ts';

const value = signWebhook('{"id":"evt_1"}', 'whsec_test', 1_800_000_000);
const hex = value.split('v1=')[1] ?? '';

describe('looksSigned (finding the header, whose name is not shown)', () => {
  it('finds the form and every misspelling of it, so those are judged, not taken for a missing header', () => {
    for (const v of [
      value,
      `t=1800000000, v1=${hex}`,
      `t=1800000000,v1=${hex.toUpperCase()}`,
      `T=1800000000,V1=${hex}`,
      `v1=${hex},t=1800000000`,
      `${value},v1=${'0'.repeat(64)}`,
    ])
      expect(looksSigned(v), v).toBe(true);
  });
  it('does not take other header values for a signature', () => {
    for (const v of ['application/json', 't=1', `v1=${hex}`, 't=abc,v1=00', 'sha256=abcdef', ''])
      expect(looksSigned(v), v).toBe(false);
  });
});

describe('formProblems', () => {
  it('finds nothing in the exact form', () => {
    expect(formProblems(value)).toEqual([]);
  });
  it('names each way a value strays from t=<unix-seconds>,v1=<64 lowercase hex>', () => {
    expect(formProblems(`t=1800000000, v1=${hex}`)).toEqual(['whitespace in the value (e.g. after the comma)']);
    expect(formProblems(`t=1800000000,v1=${hex.toUpperCase()}`)).toEqual([
      'upper-case hex (the interface says lowercase hex)',
    ]);
    expect(formProblems(`T=1800000000,V1=${hex}`)).toEqual(['upper-case names (T=, V1=)']);
    expect(formProblems(`v1=${hex},t=1800000000`)).toEqual(['not t first and v1 second']);
    expect(formProblems(`${value},v1=${'0'.repeat(64)}`)).toEqual([
      '1 further part(s) after t and v1 (e.g. a second v1 or a v0)',
    ]);
    expect(formProblems(`t=1800000000,v1=${hex.slice(2)}`)).toEqual(['a v1 that is not 64 hex digits (HMAC-SHA256)']);
    expect(formProblems(`${value}\n`)).toEqual(['whitespace in the value (e.g. after the comma)']);
  });
});
