import { describe, expect, it } from 'vitest';
import { browserGuardStep } from './browser-guard.ts';
import { okResponse, testContext } from '../test-support/test-context.ts';

describe('browserGuardStep', () => {
  const browser = { origin: 'https://shop.example', authorization: 'Bearer x' };
  it('refuses credentials sent with an Origin', async () => {
    await expect(
      browserGuardStep({ allow: false }).run(testContext({ headers: browser }), async () => okResponse()),
    ).rejects.toMatchObject({ code: 'forbidden' });
  });
  it('lets public calls from browsers through, and everything when allowed', async () => {
    await expect(
      browserGuardStep({ allow: false }).run(testContext({ headers: { origin: 'https://x.example' } }), async () =>
        okResponse(),
      ),
    ).resolves.toMatchObject({ status: 200 });
    await expect(
      browserGuardStep({ allow: true }).run(testContext({ headers: browser }), async () => okResponse()),
    ).resolves.toMatchObject({ status: 200 });
  });
});
