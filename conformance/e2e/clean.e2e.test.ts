import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKS } from '../checks/index.ts';
import { runConformance } from '../runner/run.ts';
import { httpTarget, mswTargets } from './targets.ts';

function expectEveryCheckPassed(result: Awaited<ReturnType<typeof runConformance>>) {
  const notPassed = result.results
    .filter((r) => r.status !== 'pass')
    .map((r) => ({ name: r.check.name, status: r.status, reason: r.reason, error: r.error, failures: r.failures }));
  expect(notPassed).toEqual([]);
  expect(result.results.map((r) => r.check.name)).toEqual(CHECKS.map((c) => c.name));
  expect(result.exitCode).toBe(0);
}

describe('the clean simulator passes every check', () => {
  it('over node:http with the undici client (main and alternate base URL)', async () => {
    const target = await httpTarget();
    try {
      expectEveryCheckPassed(await runConformance(target.kit));
    } finally {
      await target.close();
    }
  });

  describe('in-process through MSW with globalThis.fetch', () => {
    const msw = mswTargets();
    beforeAll(msw.listen);
    afterAll(msw.close);

    it('every check passes', async () => {
      expectEveryCheckPassed(await runConformance(await msw.use()));
    });

    it('the read-only profile skips the modifying checks and passes the rest', async () => {
      const result = await runConformance({ ...(await msw.use()), profile: 'read-only' });
      expect(result.exitCode).toBe(0);
      expect(result.summary.failed).toBe(0);
      const skipped = result.results.filter((r) => r.status === 'skip');
      expect(skipped.filter((r) => r.check.mutating).map((r) => r.check.name)).toEqual(
        CHECKS.filter((c) => c.mutating).map((c) => c.name),
      );
      expect(skipped.every((r) => !r.check.mutating || /read-only profile/.test(r.reason!))).toBe(true);
      // A fresh sandbox read without changing anything has an empty audit log (nothing to verify or prove)
      // and no entry of its own to read under another tenant.
      expect(skipped.filter((r) => !r.check.mutating).map((r) => [r.check.name, r.reason])).toEqual([
        ['audit.integrity', 'the audit log is empty: nothing to verify yet'],
        ['audit.entry-hash', 'the audit log is empty: nothing to recompute yet'],
        ['audit.signature', 'the audit log is empty: nothing signed yet'],
        ['audit.chain-links', 'the audit log is empty: nothing to follow yet'],
        ['audit.proof-shown', 'the audit log is empty: nothing to prove yet'],
        ['audit.pages-agree', 'the audit log is empty: nothing to page through yet'],
        [
          'tenants.foreign-entry-not-found',
          'no documented read of one entry answered its own tenant 200: nothing to compare',
        ],
      ]);
    });

    it('without credentials the checks that need a token are skipped, the others pass', async () => {
      const { token: _token, tenant: _tenant, ...anonymous } = await msw.use();
      const result = await runConformance(anonymous);
      const skipped = result.results.filter((r) => r.status === 'skip');
      expect(skipped.map((r) => r.check.name)).toEqual(
        CHECKS.filter((c) => c.requires?.includes('token')).map((c) => c.name),
      );
      expect(skipped.every((r) => /no credentials/.test(r.reason!))).toBe(true);
      expect(result.summary.failed).toBe(0);
    });
  });
});
