import { describe, expect, it } from 'vitest';
import { browserGuardMiddleware } from './browser-guard.ts';
import { okResponse, testContext } from '../test-support/test-context.ts';

describe('browserGuardMiddleware', () => {
  const browser = { origin: 'https://shop.example', authorization: 'Bearer x' };
  it('refuses credentials sent with an Origin', async () => {
    await expect(
      browserGuardMiddleware({ allow: false })(testContext({ headers: browser }), async () => okResponse()),
    ).rejects.toMatchObject({ code: 'forbidden' });
  });
  it('lets public calls from browsers through, and everything when allowed', async () => {
    await expect(
      browserGuardMiddleware({ allow: false })(testContext({ headers: { origin: 'https://x.example' } }), async () =>
        okResponse(),
      ),
    ).resolves.toMatchObject({ status: 200 });
    await expect(
      browserGuardMiddleware({ allow: true })(testContext({ headers: browser }), async () => okResponse()),
    ).resolves.toMatchObject({ status: 200 });
  });
});
