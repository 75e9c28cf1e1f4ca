import { expect, it } from 'vitest';
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import type { Core } from '../../simulator/index.ts';
import { auditChecks } from '../checks/audit.ts';
import { runConformance } from '../runner/run.ts';
import { jsonBodyOf } from '../violations/json-edit.ts';
import { httpTarget, noWait } from './targets.ts';

const ACTIVATION_MS = 60_000;

// A slow deployment (or a busy machine): the kit's first audit connection turns active after the second
// was created and before the log is read, so the log names the first one twice, newest first:
// [activation 1, creation 2, creation 1]. Legal, and the sequence numbers agree: audit.order must pass.
it('audit.order passes a log that names the older change again after the newer one', async () => {
  let clock: { advance(ms: number): void } | undefined;
  let created = 0;
  // The sandbox clock moves half the activation delay after each of the kit's two audit creations:
  // the first connection's activation falls due after the second creation, the second's not yet.
  const wrapCore = (core: Core): Core => ({
    ...core,
    async handle(req) {
      const res = await core.handle(req);
      const label = jsonBodyOf(req)?.scopeLabel;
      if (req.method === 'POST' && req.path === `${BASE_PATH}/connections` && /-audit-\d/.test(String(label))) {
        if (++created <= 2) clock?.advance(ACTIVATION_MS / 2);
      }
      return res;
    },
  });
  const target = await httpTarget({ activationDelayMs: ACTIVATION_MS, wrapCore });
  clock = target.sandbox.state.clock;
  try {
    const result = await runConformance({ ...target.kit, retry: noWait, checks: auditChecks });
    const order = result.results.find((r) => r.check.name === 'audit.order');
    // The two in order, then one under the earlier version (looked for in the log too; its order is not judged).
    expect(created).toBe(3);
    expect(order?.notes).toContain('the audit log lists newest first');
    expect(order?.failures).toEqual([]);
    expect(order?.status).toBe('pass');
  } finally {
    await target.close();
  }
});
