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
