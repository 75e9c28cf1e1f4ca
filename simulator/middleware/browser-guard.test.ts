import { describe, expect, it } from 'vitest';
import { okResponse, stepRun, testContext } from '../test-support/test-context.ts';
import { browserGuardStep } from './browser-guard.ts';

describe('browserGuardStep', () => {
  const browser = { origin: 'https://shop.example', authorization: 'Bearer x' };
  it('refuses credentials sent with an Origin', async () => {
    await expect(
      stepRun(browserGuardStep({ allow: false }))(testContext({ headers: browser }), async () => okResponse()),
    ).rejects.toMatchObject({ code: 'forbidden' });
  });
  it('refuses credentials with Fetch Metadata only a browser sends (a same-origin GET has no Origin)', async () => {
    for (const meta of [{ 'sec-fetch-site': 'same-origin' }, { 'sec-fetch-dest': 'empty' }] as Record<string, string>[])
      await expect(
        stepRun(browserGuardStep({ allow: false }))(
          testContext({ headers: { authorization: 'Bearer x', ...meta } }),
          async () => okResponse(),
        ),
      ).rejects.toMatchObject({ code: 'forbidden' });
    // Node's and Deno's fetch send Sec-Fetch-Mode from servers too: not a browser on its own.
    await expect(
      stepRun(browserGuardStep({ allow: false }))(
        testContext({ headers: { authorization: 'Bearer x', 'sec-fetch-mode': 'cors' } }),
        async () => okResponse(),
      ),
    ).resolves.toMatchObject({ status: 200 });
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
