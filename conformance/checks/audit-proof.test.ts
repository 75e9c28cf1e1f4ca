import { describe, expect, it } from 'vitest';
import type { Exchange } from '../client/http-client.ts';
import { proofShown } from './audit-proof.ts';

const answer = (data: unknown, headers: Record<string, string> = {}) =>
  ({ status: 200, headers, json: { ok: true, data } }) as unknown as Exchange;
const HEX = 'ab'.repeat(32);

describe('proofShown (a proof of integrity in any format)', () => {
  it('finds a proof by name, by a digest-like value, or in a header', () => {
    expect(proofShown(answer({ entries: [{ id: 'e1' }], proof: { head: 'x' } }))).toBe('data.proof');
    // The answer's own proof object is named before an entry's digest-like value.
    expect(proofShown(answer({ entries: [{ id: 'e1', prev: HEX }], proof: { head: 'x' } }))).toBe('data.proof');
    expect(proofShown(answer({ results: [{ id: 'e1', prev_hash: HEX }] }))).toBe('data.results[0].prev_hash');
    expect(proofShown(answer({ results: [{ id: 'e1', seal: null, fingerprint: HEX }] }))).toBe(
      'data.results[0].fingerprint',
    );
    expect(proofShown(answer({ results: [{ id: 'e1' }] }, { 'x-audit-signature': 'sig' }))).toBe(
      'header x-audit-signature',
    );
  });

  it('finds none in a plain list of entries', () => {
    expect(
      proofShown(
        answer({ count: 1, results: [{ id: 'e1', action: 'connection.created', at: '2026-07-01T10:00:00Z' }] }),
      ),
    ).toBeUndefined();
  });
});
