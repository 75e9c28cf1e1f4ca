import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanText } from './channel-scan.ts';
import { findHostPort, HOST_PORT } from './host-port-sign.ts';

/** Texts made of the pieces the pattern turns on, so matches, near misses and overlaps are common. */
const PIECES = [
  'localhost',
  '127',
  '10',
  '192',
  '168',
  '172',
  '16',
  '31',
  '32',
  '0',
  '5',
  '255',
  '1234',
  '99999',
  '123456',
  '.',
  '.',
  '-',
  '_',
  ':',
  ':',
  ' ',
  '"',
  '/',
  '@',
  'a',
  'Db',
  'x-y',
  'svc',
  'SVC',
  'internal',
  'local',
  'cluster',
  'lan',
  'corp',
  'Corp',
  'é',
  '\n',
  // Whole hosts and ports, so the sequences that match are frequent, not a rare coincidence.
  'db-1.internal',
  'x_y.svc',
  'a.cluster.local',
  '10.1.2.3',
  '172.16.0.1',
  '192.168.1.1',
  '127.0.0.1',
  ':80',
  ':5432',
  ':123456',
  ':1',
];
const texts = fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((p) => p.join(''));

describe('the internal host:port sign, found window by window', () => {
  it('finds exactly what the pattern finds over the whole text', () => {
    fc.assert(
      fc.property(texts, (text) => {
        expect(findHostPort(text)).toBe(HOST_PORT.exec(text)?.[0]);
      }),
      { numRuns: 3000, seed: 7 },
    );
  });

  it.each([
    ['connect ECONNREFUSED 10.0.3.17:5432', '10.0.3.17:5432'],
    ['a: 12, ledger.svc.cluster.local:8443 then db.internal:5432', 'ledger.svc.cluster.local:8443'],
    ['http://LOCALHOST:80/x', 'LOCALHOST:80'],
    ['at 10:00:00, 127.0.0.1:123456 and 127.0.0.1:4010', '127.0.0.1:4010'],
    ['"maxLength":120, "host":"api.example.com:443"', undefined],
  ])('%s', (text, expected) => {
    expect(findHostPort(text)).toBe(expected);
    expect(HOST_PORT.exec(text)?.[0]).toBe(expected);
  });

  it('a large text scanned again gives the same findings, and a copy the caller may change', () => {
    const text = `${'{"x":"harbour"},'.repeat(2000)} upstream ledger.svc.cluster.local:8443`;
    const o = { secrets: [{ value: 'tok_abcdef123', what: 'the bearer token' }], error: false };
    const first = scanText(text, o);
    expect(first).toEqual(['the host:port of an internal service: "ledger.svc.cluster.local:8443"']);
    first.push('changed');
    expect(scanText(text, o)).toEqual(['the host:port of an internal service: "ledger.svc.cluster.local:8443"']);
    expect(scanText(`${text} tok_abcdef123`, o)).toContain('the bearer token');
    expect(scanText(text, { ...o, legal: ['ledger.svc.cluster.local:8443'] })).toEqual([]);
  });
});
