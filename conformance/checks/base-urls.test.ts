import { describe, expect, it } from 'vitest';
import type { Exchange } from '../client/http-client.ts';
import { movedBetween } from './base-urls.ts';

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
