import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_BY_ID } from '../../simulator/contract/route-table.ts';
import { runConformance } from '../runner/run.ts';
import { violationOptions } from '../violations/index.ts';
import { mswTargets } from './targets.ts';

// Severity policy: SHOULD where the kit assumed; MUST where the deployment declared it or the kit
// discovered the format.
describe('severity follows what was assumed, declared or discovered', () => {
  const msw = mswTargets();
  beforeAll(msw.listen);
  afterAll(msw.close);

  it('a redelivery that delivers nothing is advisory at an assumed path and fails the run at a declared one', async () => {
    const grep = /^webhooks\./;
    // An in-process target delivers in milliseconds; the staging default (10 s) would be waited out twice here.
    const webhookTimeoutMs = 3000;
    const assumed = await runConformance({
      ...(await msw.use(violationOptions('redelivery-not-sent'))),
      grep,
      webhookTimeoutMs,
    });
    const a = assumed.results.find((r) => r.check.name === 'webhooks.redelivery')!;
    expect([a.status, a.check.severity, assumed.exitCode]).toEqual(['fail', 'SHOULD', 0]);

    const options = await msw.use(violationOptions('redelivery-not-sent'));
    const declared = await runConformance({
      ...options,
      grep,
      webhookTimeoutMs,
      deploymentProfile: {
        ...(options.deploymentProfile as object),
        webhookRedeliverPath: ROUTE_BY_ID.get('redeliver')!.path,
      },
    });
    const d = declared.results.find((r) => r.check.name === 'webhooks.redelivery')!;
    expect([d.status, d.check.severity, declared.exitCode]).toEqual(['fail', 'MUST', 1]);
    expect(d.notes.join('\n')).toMatch(/judged as MUST: the deployment profile declares webhookRedeliverPath/);
  });

  it('a broken audit chain in a format the answer declares fails the run', async () => {
    const options = await msw.use(violationOptions('audit-entry-tampered'));
    // A first run leaves entries in the log; the second judges their proof.
    await runConformance({ ...options, grep: /^audit\.records-change$/ });
    const result = await runConformance({ ...options, grep: /^audit\.integrity$/ });
    const integrity = result.results.find((r) => r.check.name === 'audit.integrity')!;
    expect([integrity.status, integrity.check.severity, result.exitCode]).toEqual(['fail', 'MUST', 1]);
  });
});
