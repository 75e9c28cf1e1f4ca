import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../runner/run.ts';
import { ALT_CHOICES, altChoicesTarget } from './alt-target.ts';

// A deployment we did not write the choices of: the kit may skip where it cannot know, never fail a MUST.
describe('a deployment with other legal choices where the interface is silent', () => {
  let target: Awaited<ReturnType<typeof altChoicesTarget>>;
  beforeAll(async () => {
    target = await altChoicesTarget();
  });
  afterAll(() => target.close());

  const mustFailures = (r: Awaited<ReturnType<typeof runConformance>>) =>
    r.results
      .filter((x) => x.status !== 'pass' && x.status !== 'skip')
      .map((x) => ({
        name: x.check.name,
        severity: x.check.severity,
        status: x.status,
        failures: x.failures,
        error: x.error,
      }));

  it('passes with no profile at all (only a token and a tenant): skips allowed, no failure', async () => {
    const result = await runConformance({ baseUrl: target.baseUrl, token: target.token, tenant: target.tenant });
    expect(mustFailures(result)).toEqual([]);
    expect(result.exitCode).toBe(0);
    const skipped = new Map(result.results.filter((r) => r.status === 'skip').map((r) => [r.check.name, r.reason]));
    expect(skipped.get('audit.integrity')).toMatch(/format/);
    // Its event names are not the simulator's: the guessed one is refused, so the delivery checks skip.
    expect(skipped.get('webhooks.registration')).toMatch(/webhookTestEvent/);
  });

  it('passes with a profile that declares its choices, and then judges the webhooks under its own header', async () => {
    const result = await runConformance({
      baseUrl: target.baseUrl,
      token: target.token,
      tenant: target.tenant,
      deploymentProfile: {
        webhookSignatureHeader: ALT_CHOICES.signatureHeader,
        webhookTestEvent: 'venue.link.created',
        webhookReceiverUrl: 'loopback',
        webhookDeliveryLogPath: ALT_CHOICES.deliveryLogPath,
        webhookRedeliverPath: ALT_CHOICES.redeliverPath,
        webhookDeliveryIdHeader: ALT_CHOICES.deliveryIdHeader,
      },
    });
    expect(mustFailures(result)).toEqual([]);
    expect(result.exitCode).toBe(0);
    const status = new Map(result.results.map((r) => [r.check.name, r.status]));
    expect(status.get('webhooks.signature')).toBe('pass');
    expect(status.get('webhooks.delivery-arrives')).toBe('pass');
    expect(status.get('webhooks.delivery-log')).toBe('pass');
    expect(status.get('webhooks.redelivery')).toBe('pass');
    expect(status.get('versions.delivery-log-since-current')).toBe('pass');
    expect(status.get('auth.missing-tenant-invalid-request')).toBe('skip');
  });

  it('judges the delivery log and redelivery at the paths the deployment publishes, also without a delivery-id header', async () => {
    const declared = {
      webhookSignatureHeader: ALT_CHOICES.signatureHeader,
      webhookTestEvent: 'venue.link.created',
      webhookReceiverUrl: 'loopback',
    } as const;
    const grep = /^webhooks|^versions\.delivery-log/;
    const guessed = await runConformance({
      baseUrl: target.baseUrl,
      token: target.token,
      tenant: target.tenant,
      grep,
      deploymentProfile: declared,
    });
    expect(mustFailures(guessed)).toEqual([]);
    // Not declared: read from its OpenAPI document (`…/attempts`, `…/attempts/{deliveryId}/retry`), not skipped
    // at the simulator's paths (session 18; before, they skipped naming the profile field).
    const found = new Map(guessed.results.map((r) => [r.check.name, r.status]));
    for (const name of ['webhooks.delivery-log', 'webhooks.redelivery', 'versions.delivery-log-since-current'])
      expect(found.get(name), name).toBe('pass');

    // Its paths declared but not its delivery-id header: the kit finds the delivery by its event id.
    const noIdHeader = await runConformance({
      baseUrl: target.baseUrl,
      token: target.token,
      tenant: target.tenant,
      grep,
      deploymentProfile: {
        ...declared,
        webhookDeliveryLogPath: ALT_CHOICES.deliveryLogPath,
        webhookRedeliverPath: ALT_CHOICES.redeliverPath,
        webhookDeliveryIdHeader: null,
      },
    });
    expect(mustFailures(noIdHeader)).toEqual([]);
    const status = new Map(noIdHeader.results.map((r) => [r.check.name, r.status]));
    expect(status.get('webhooks.delivery-log')).toBe('pass');
    expect(status.get('webhooks.redelivery')).toBe('pass');

    // A deployment without a delivery log or redelivery says so; the checks skip naming the field.
    const none = await runConformance({
      baseUrl: target.baseUrl,
      token: target.token,
      tenant: target.tenant,
      grep,
      deploymentProfile: { ...declared, webhookDeliveryLogPath: null, webhookRedeliverPath: null },
    });
    expect(mustFailures(none)).toEqual([]);
    const reasons = new Map(none.results.filter((r) => r.status === 'skip').map((r) => [r.check.name, r.reason]));
    expect(reasons.get('webhooks.delivery-log')).toMatch(/webhookDeliveryLogPath: null/);
    expect(reasons.get('webhooks.redelivery')).toMatch(/webhookRedeliverPath: null/);
    expect(reasons.get('versions.delivery-log-since-current')).toMatch(/webhookDeliveryLogPath: null/);
  });
});
