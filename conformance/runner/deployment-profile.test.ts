import { describe, expect, it } from 'vitest';
import { ROUTE_BY_ID } from '../../simulator/contract/route-table.ts';
import { WEBHOOK_DEFAULTS } from '../../simulator/contract/simulator-defaults.ts';
import { DEFAULT_DEPLOYMENT_PROFILE, parseDeploymentProfile } from './deployment-profile.ts';

describe('deployment profile: the delivery log (its paths and the delivery-id header are not shown)', () => {
  it("defaults to the simulator's paths from its route table and its NCS-Delivery header", () => {
    expect(DEFAULT_DEPLOYMENT_PROFILE.webhookDeliveryLogPath).toBe(ROUTE_BY_ID.get('listDeliveries')?.path);
    expect(DEFAULT_DEPLOYMENT_PROFILE.webhookRedeliverPath).toBe(ROUTE_BY_ID.get('redeliver')?.path);
    expect(DEFAULT_DEPLOYMENT_PROFILE.webhookDeliveryLogPath).toBe('/api/public/v1/webhooks/{webhookId}/deliveries');
    expect(DEFAULT_DEPLOYMENT_PROFILE.webhookRedeliverPath).toBe(
      '/api/public/v1/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver',
    );
    expect(DEFAULT_DEPLOYMENT_PROFILE.webhookDeliveryIdHeader).toBe(WEBHOOK_DEFAULTS.deliveryHeader);
  });

  it("takes a deployment's own templates and header, and null for none", () => {
    const own = parseDeploymentProfile({
      webhookDeliveryLogPath: '/hooks/{webhookId}/log',
      webhookRedeliverPath: '/hooks/{webhookId}/log/{deliveryId}:retry',
      webhookDeliveryIdHeader: 'X-Hook-Delivery',
    });
    expect(own).toMatchObject({
      webhookDeliveryLogPath: '/hooks/{webhookId}/log',
      webhookRedeliverPath: '/hooks/{webhookId}/log/{deliveryId}:retry',
      webhookDeliveryIdHeader: 'X-Hook-Delivery',
    });
    const none = parseDeploymentProfile({
      webhookDeliveryLogPath: null,
      webhookRedeliverPath: null,
      webhookDeliveryIdHeader: null,
    });
    expect(none).toMatchObject({
      webhookDeliveryLogPath: null,
      webhookRedeliverPath: null,
      webhookDeliveryIdHeader: null,
    });
  });

  it.each([
    [{ webhookDeliveryLogPath: 'hooks/{webhookId}/log' }, /webhookDeliveryLogPath/],
    [{ webhookDeliveryLogPath: '/hooks/log' }, /webhookDeliveryLogPath/],
    [{ webhookRedeliverPath: '/hooks/{webhookId}/retry' }, /webhookRedeliverPath/],
    [{ webhookRedeliverPath: 'hooks/{webhookId}/{deliveryId}' }, /webhookRedeliverPath/],
    [{ webhookDeliveryIdHeader: '' }, /webhookDeliveryIdHeader/],
  ])('refuses %j, naming the field', (profile, field) => {
    expect(() => parseDeploymentProfile(profile)).toThrow(field);
  });

  it('takes a redelivery path by delivery id alone (not nested under its receiver)', () => {
    const path = '/api/public/v1/webhook-deliveries/{deliveryId}/retrigger';
    expect(parseDeploymentProfile({ webhookRedeliverPath: path }).webhookRedeliverPath).toBe(path);
  });
});

describe('deployment profile: rateLimitBurst (the interface does not show the limits)', () => {
  it('defaults to null (never flood) and takes a burst within the hard bounds', () => {
    expect(DEFAULT_DEPLOYMENT_PROFILE.rateLimitBurst).toBeNull();
    expect(parseDeploymentProfile({ rateLimitBurst: { maxCalls: 2_000, maxMillis: 60_000 } }).rateLimitBurst).toEqual({
      maxCalls: 2_000,
      maxMillis: 60_000,
    });
  });

  it.each([
    { maxCalls: 2_001, maxMillis: 1_000 },
    { maxCalls: 0, maxMillis: 1_000 },
    { maxCalls: 10, maxMillis: 60_001 },
    { maxCalls: 10, maxMillis: 99 },
    { maxCalls: 1.5, maxMillis: 1_000 },
    { maxCalls: 10 },
    { maxCalls: 10, maxMillis: 1_000, concurrency: 50 },
  ])('refuses %j, naming the field', (burst) => {
    expect(() => parseDeploymentProfile({ rateLimitBurst: burst })).toThrow(/rateLimitBurst/);
  });
});
