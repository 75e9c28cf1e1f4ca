import { describe, expect, it } from 'vitest';
import { altSample } from './alt-probes.ts';
import type { Probe } from './probes.ts';

const probe = (id: string, accepted: boolean, key = 'key-of-the-probe-01'): Probe => ({
  id,
  field: id.split('.')[0] as string,
  expect: accepted ? { accepted: true } : { accepted: false, code: 'invalid_request' },
  rule: `rule of ${id}`,
  body: { [id.split('.')[0] as string]: 'a text value' },
  query: {},
  headers: { 'Idempotency-Key': id.startsWith('Idempotency-Key') ? id : key },
});

describe('altSample', () => {
  const probes = [
    probe('scopeLabel.length-1', false),
    probe('scopeLabel.length-121', false),
    probe('connectorId.length-121', false),
    probe('environment.other-case', false),
    probe('environment.value-sandbox', true),
    probe('Idempotency-Key.char-44', false),
    probe('Idempotency-Key.char-63', false),
  ];

  it('sends one refused probe of each kind again, and one accepted boundary length', () => {
    const sample = altSample([...probes, probe('scopeLabel.length-2', true), probe('scopeLabel.length-120', true)], 1);
    expect(sample.map((p) => p.id.replace(/^[^.]+\./, '').replace(/\d+/g, 'N')).sort()).toEqual([
      'char-N@alt',
      'length-N@alt',
      'length-N@alt',
      'other-case@alt',
    ]);
    expect(sample.filter((p) => p.expect.accepted === true)).toHaveLength(1);
    // A list's count is not sent again (a list of one value repeated may be read as a set).
    const list = { ...probe('capabilities.length-24', true), body: { capabilities: ['a', 'a'] } };
    expect(altSample([list], 1)).toEqual([]);
    // Other accepted values (an enumeration's value) are not sent again.
    expect(sample.some((p) => p.id.startsWith('environment.value'))).toBe(false);
    expect(sample.every((p) => p.rule.startsWith('at the alternate address too: '))).toBe(true);
  });

  it('draws by the seed, so runs cover every probe of a kind', () => {
    const drawn = new Set(Array.from({ length: 40 }, (_, seed) => altSample(probes, seed)[0]?.id));
    expect(drawn).toEqual(
      new Set(['scopeLabel.length-1@alt', 'scopeLabel.length-121@alt', 'connectorId.length-121@alt']),
    );
  });

  it('gives the call a key of its own unless the key is the value probed', () => {
    const sample = altSample(probes, 3);
    const other = sample.find((p) => p.field === 'environment');
    expect(other?.headers['Idempotency-Key']).toBe('key-of-the-probe-01.alt');
    const keyed = sample.find((p) => p.field === 'Idempotency-Key');
    expect(keyed?.headers['Idempotency-Key']).toMatch(/^Idempotency-Key\.char-\d+$/);
  });
});
