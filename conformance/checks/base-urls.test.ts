import { describe, expect, it } from 'vitest';
import type { Exchange } from '../client/http-client.ts';
import { movedBetween, rebased } from './base-urls.ts';

const answer = (states: string[]) =>
  ({
    status: 200,
    json: { ok: true, data: { connections: states.map((state, i) => ({ id: `c${i}`, state })) } },
  }) as unknown as Exchange;

describe('movedBetween (base-urls.alt-identical under concurrent writes)', () => {
  it('accepts an alternate answer that shows a change the next main read also shows', () => {
    expect(
      movedBetween(
        answer(['requested', 'requested']),
        answer(['enabled', 'requested']),
        answer(['enabled', 'enabled']),
      ),
    ).toBe(true);
  });
  it('rejects a field that differs from the main answer both before and after', () => {
    expect(movedBetween(answer(['enabled']), answer(['revoked']), answer(['enabled']))).toBe(false);
  });
  it('rejects a list the alternate URL shortens while the main one keeps it', () => {
    expect(movedBetween(answer(['enabled', 'enabled']), answer(['enabled']), answer(['enabled', 'enabled']))).toBe(
      false,
    );
  });
  const proof = (signature: string, entries = 2) =>
    ({
      status: 200,
      json: {
        ok: true,
        data: { entries: Array.from({ length: entries }, (_, i) => ({ seq: i + 1 })), proof: { signature } },
      },
    }) as unknown as Exchange;
  it('leaves out a field the main address makes anew on every read (a proof signed per read), only then', () => {
    // Without a third main read the signature differs from both neighbours: not explained.
    expect(movedBetween(proof('s1'), proof('s2'), proof('s3'))).toBe(false);
    expect(movedBetween(proof('s1'), proof('s2'), proof('s3'), proof('s4'))).toBe(true);
    // Still judged: what else differs (an entry missing on the alternate address), or a field gone there.
    expect(movedBetween(proof('s1'), proof('s2', 1), proof('s3'), proof('s4'))).toBe(false);
    const unsigned = {
      status: 200,
      json: { ok: true, data: { entries: [{ seq: 1 }, { seq: 2 }] } },
    } as unknown as Exchange;
    expect(movedBetween(proof('s1'), unsigned, proof('s3'), proof('s4'))).toBe(false);
  });
  it('judges a state that moved once and an alternate answer showing a third value', () => {
    expect(movedBetween(answer(['requested']), answer(['revoked']), answer(['enabled']), answer(['enabled']))).toBe(
      false,
    );
  });
});

describe('rebased (links built from the address that was called)', () => {
  it('reads the alternate base URL and origin as the main ones, anywhere in the answer, and nothing else', () => {
    const alt = 'http://127.0.0.1:4020';
    const main = 'http://127.0.0.1:4010';
    expect(
      rebased(
        { authentication: { token_url: `${alt}/oauth/token` }, links: [`${alt}/api/public/v1/openapi.json`], n: 3 },
        `${alt}/`,
        main,
      ),
    ).toEqual({
      authentication: { token_url: `${main}/oauth/token` },
      links: [`${main}/api/public/v1/openapi.json`],
      n: 3,
    });
    expect(rebased({ other: 'http://127.0.0.1:4030/x' }, alt, main)).toEqual({ other: 'http://127.0.0.1:4030/x' });
  });
});
