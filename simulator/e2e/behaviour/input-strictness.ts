import { describe, expect, it } from 'vitest';
import { client, readResult, type Target } from '../harness.ts';
import { expectFailure, expectSuccess } from './expect-envelope.ts';

/** What a refused call must leave alone; feed counts move with other tests' background retries, so they stay out. */
const writes = async (t: { sandbox: { state: { snapshot(): string | Promise<string> } } }) => {
  const { feeds: _feeds, ...rest } = JSON.parse(await t.sandbox.state.snapshot()) as Record<string, unknown>;
  return JSON.stringify(rest);
};

let seq = 0;
const key = () => `strict-${Date.now().toString(36)}-${++seq}`;
const BODY =
  '{"connectorId":"tillcraft-pos-cloud","environment":"sandbox","scopeLabel":"Strict","capabilities":["orders.read"]}';

/** Only JSON in UTF-8, one Content-Type, each key once per object. */
export function inputStrictnessBehaviour(get: () => Target) {
  describe('input strictness: JSON in UTF-8 only, no duplicated keys', () => {
    /** POSTs a raw body with the given header list (repeated names stay repeated). */
    const post = async (t: Target, headers: [string, string][], body = BODY) => {
      const api = client(t);
      return readResult(
        await t.fetch(`${t.baseUrl}/api/public/v1/connections`, {
          method: 'POST',
          headers: [
            ['authorization', `Bearer ${api.token}`],
            ['x-service-tenant', api.tenant],
            ['idempotency-key', key()],
            ...headers,
          ],
          body,
        }),
      );
    };

    it('refuses two Content-Type headers with 400 invalid_request, changing nothing', async () => {
      const t = get();
      const before = await writes(t);
      const res = await post(t, [
        ['content-type', 'application/json'],
        ['content-type', 'text/plain'],
      ]);
      expect(expectFailure(res, 'invalid_request').detail).toMatch(/Content-Type header is given more than once/);
      expect(await writes(t)).toBe(before);
    });

    it('refuses a charset other than UTF-8; accepts application/json with charset=UTF-8', async () => {
      const t = get();
      const error = expectFailure(
        await post(t, [['content-type', 'application/json; charset=iso-8859-1']]),
        'invalid_request',
      );
      expect(error.detail).toMatch(/UTF-8.*iso-8859-1/);
      expect(error.hint).toMatch(/application\/json/);
      expectSuccess(await post(t, [['content-type', 'application/json; charset=UTF-8']]));
    });

    it('refuses a key given twice in one JSON object with 400 invalid_request naming it', async () => {
      const t = get();
      const before = await writes(t);
      const body = BODY.replace('"scopeLabel":"Strict"', '"scopeLabel":"Strict","scopeLabel":"Other"');
      const error = expectFailure(await post(t, [['content-type', 'application/json']], body), 'invalid_request');
      expect(error.detail).toContain('"scopeLabel" twice');
      expect(await writes(t)).toBe(before);
    });
  });
}
