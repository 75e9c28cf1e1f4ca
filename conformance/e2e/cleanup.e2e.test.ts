import { expect, it } from 'vitest';
import { runConformance } from '../runner/run.ts';
import { httpTarget, SIMULATOR_PROFILE } from './targets.ts';

// Repeated runs against staging must not pile up receivers that fail every delivery once the kit is gone.
it('the kit removes the webhook receivers it registered when the run ends', async () => {
  const target = await httpTarget();
  try {
    const result = await runConformance(target.kit);
    expect(result.exitCode).toBe(0);
    const registered = result.results.filter((r) => r.check.name.startsWith('webhooks.') && r.status === 'pass');
    expect(registered.length).toBeGreaterThan(0);
    const tenants = [target.kit.tenant!, target.kit.otherTenant!];
    const left = (await Promise.all(tenants.map((t) => target.sandbox.state.receivers.list(t)))).flat();
    expect(left.map((r) => r.url)).toEqual([]);
  } finally {
    await target.close();
  }
});

it('a profile with webhookDeletePath null leaves them (the deployment offers no way to remove one)', async () => {
  const target = await httpTarget();
  try {
    const result = await runConformance({
      ...target.kit,
      deploymentProfile: { ...SIMULATOR_PROFILE, webhookDeletePath: null },
    });
    expect(result.exitCode).toBe(0);
    expect((await target.sandbox.state.receivers.list(target.kit.tenant!)).length).toBeGreaterThan(0);
  } finally {
    await target.close();
  }
});
