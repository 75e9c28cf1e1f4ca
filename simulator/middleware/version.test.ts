import { describe, expect, it } from 'vitest';
import { versionStep } from './version.ts';
import { okResponse, stepRun, testContext } from '../test-support/test-context.ts';

describe('versionStep', () => {
  it('defaults to the current version, serves published ones, refuses others', async () => {
    const mw = stepRun(versionStep());
    const plain = testContext();
    await mw(plain, async () => okResponse());
    expect(plain.version).toBe('2026-07-01');
    const old = testContext({ headers: { 'service-version': '2026-06-12' } });
    await mw(old, async () => okResponse());
    expect(old.version).toBe('2026-06-12');
    await expect(
      mw(testContext({ headers: { 'service-version': 'latest' } }), async () => okResponse()),
    ).rejects.toMatchObject({
      code: 'invalid_request',
      hint: expect.stringContaining('2026-06-12'),
    });
  });
});
