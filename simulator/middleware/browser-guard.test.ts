import { describe, expect, it } from 'vitest';
import { browserGuardStep } from './browser-guard.ts';
import { okResponse, stepRun, testContext } from '../test-support/test-context.ts';

describe('browserGuardStep', () => {
  const browser = { origin: 'https://shop.example', authorization: 'Bearer x' };
  it('refuses credentials sent with an Origin', async () => {
    await expect(
      stepRun(browserGuardStep({ allow: false }))(testContext({ headers: browser }), async () => okResponse()),
    ).rejects.toMatchObject({ code: 'forbidden' });
  });
  it('lets public calls from browsers through, and everything when allowed', async () => {
    await expect(
      stepRun(browserGuardStep({ allow: false }))(testContext({ headers: { origin: 'https://x.example' } }), async () =>
        okResponse(),
      ),
    ).resolves.toMatchObject({ status: 200 });
    await expect(
      stepRun(browserGuardStep({ allow: true }))(testContext({ headers: browser }), async () => okResponse()),
    ).resolves.toMatchObject({ status: 200 });
  });
});
