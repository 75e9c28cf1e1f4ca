import { describe, expect, it } from 'vitest';
import { CapabilitiesData, CapabilityCheckData, ConnectorsData, ProvidersData } from '../../contract/catalog.ts';
import { client, type Target } from '../harness.ts';
import { expectFailure, expectSuccess } from './expect-envelope.ts';

export function catalogBehaviour(get: () => Target) {
  describe('catalog', () => {
    it('lists providers, filtered by category', async () => {
      const api = client(get());
      const all = expectSuccess(await api.call('GET', '/api/public/v1/providers'), ProvidersData);
      expect(all.count).toBe(all.providers.length);
      expect(all.count).toBeGreaterThanOrEqual(10);
      const pos = expectSuccess(await api.call('GET', '/api/public/v1/providers?category=pos'), ProvidersData);
      expect(pos.count).toBeGreaterThan(0);
      expect(pos.providers.every((p) => p.category === 'pos')).toBe(true);
      expect(expectSuccess(await api.call('GET', '/api/public/v1/providers?category=nope')).count).toBe(0);
    });

    it('lists connectors with every filter, alone and combined', async () => {
      const api = client(get());
      const list = async (q: string) =>
        expectSuccess(await api.call('GET', `/api/public/v1/connectors${q}`), ConnectorsData);
      const all = await list('');
      expect(all.count).toBeGreaterThanOrEqual(20);
      const byCap = await list('?capability=payments.refund');
      expect(byCap.count).toBeGreaterThan(1);
      expect(byCap.connectors.every((c) => c.capabilities.includes('payments.refund'))).toBe(true);
      const byProvider = await list('?providerId=tillcraft');
      expect(byProvider.connectors.map((c) => c.id).sort()).toEqual([
        'tillcraft-kitchen-display',
        'tillcraft-legacy-bridge',
        'tillcraft-pos-cloud',
      ]);
      const byCategory = await list('?category=delivery');
      expect(byCategory.connectors.every((c) => c.category === 'delivery')).toBe(true);
      const combined = await list('?capability=payments.refund&category=pos');
      expect(combined.connectors.map((c) => c.id)).toEqual(['tillcraft-pos-cloud']);
      expect((await list('?capability=payments.refund&providerId=coinwren')).count).toBe(2);
      expect((await list('?capability=delivery.dispatch&category=pos')).count).toBe(0);
    });

    it('lists the capability catalog', async () => {
      const data = expectSuccess(await client(get()).call('GET', '/api/public/v1/capabilities'), CapabilitiesData);
      expect(data.count).toBeGreaterThanOrEqual(12);
      expect(data.capabilities.some((c) => c.critical)).toBe(true);
      expect(data.capabilities.some((c) => c.idempotencyRequired)).toBe(true);
    });

    it('checks a capability: allowed, default environment sandbox', async () => {
      const data = expectSuccess(
        await client(get()).call('POST', '/api/public/v1/capabilities', {
          body: { connectorId: 'tillcraft-pos-cloud', capability: 'payments.refund' },
        }),
        CapabilityCheckData,
      );
      expect(data.environment).toBe('sandbox');
      expect(data.decision).toMatchObject({
        connectorId: 'tillcraft-pos-cloud',
        capability: 'payments.refund',
        allowed: true,
        critical: true,
        idempotencyRequired: true,
      });
      expect(data.decision.reason).toMatch(/^allowed/);
    });

    it('checks a capability: not offered, restricted, unknown', async () => {
      const api = client(get());
      const check = async (body: object) =>
        expectSuccess(await api.call('POST', '/api/public/v1/capabilities', { body }), CapabilityCheckData).decision;
      expect(await check({ connectorId: 'tillcraft-pos-cloud', capability: 'delivery.dispatch' })).toMatchObject({
        allowed: false,
        reason: expect.stringMatching(/^not_offered/),
      });
      expect(
        await check({ connectorId: 'tillcraft-pos-cloud', capability: 'payments.refund', environment: 'production' }),
      ).toMatchObject({ allowed: false, reason: expect.stringMatching(/^restricted_in_environment/) });
      expect(await check({ connectorId: 'tillcraft-pos-cloud', capability: 'teleport.guests' })).toMatchObject({
        allowed: false,
        reason: expect.stringMatching(/^unknown_capability/),
      });
    });

    it('unknown connector -> 404 not_found', async () => {
      const res = await client(get()).call('POST', '/api/public/v1/capabilities', {
        body: { connectorId: 'no-such-connector', capability: 'orders.read' },
      });
      expectFailure(res, 'not_found');
    });

    it('validation failures name the field', async () => {
      const api = client(get());
      const bad = async (body: unknown, field: RegExp) => {
        const err = expectFailure(await api.call('POST', '/api/public/v1/capabilities', { body }), 'invalid_request');
        expect(err.detail).toMatch(field);
      };
      await bad({ capability: 'orders.read' }, /connectorId/);
      await bad({ connectorId: 'x', capability: 'orders.read' }, /connectorId.*at least 2/);
      await bad({ connectorId: 'a'.repeat(121), capability: 'orders.read' }, /connectorId.*at most 120/);
      await bad({ connectorId: 'tillcraft-pos-cloud', capability: 'orders.read', environment: 'moon' }, /environment/);
      await bad({ connectorId: 'tillcraft-pos-cloud', capability: 7 }, /capability.*string/);
      await bad({ connectorId: 'tillcraft-pos-cloud', capability: 'orders.read', extra: 1 }, /extra/);
      await bad([1, 2], /body/);
      // Limits are inclusive: 2 and 120 characters pass validation.
      expectFailure(
        await api.call('POST', '/api/public/v1/capabilities', {
          body: { connectorId: 'ab', capability: 'orders.read' },
        }),
        'not_found',
      );
      expectFailure(
        await api.call('POST', '/api/public/v1/capabilities', {
          body: { connectorId: 'a'.repeat(120), capability: 'orders.read' },
        }),
        'not_found',
      );
    });

    it('malformed bodies -> 400 invalid_request', async () => {
      const api = client(get());
      expectFailure(
        await api.call('POST', '/api/public/v1/capabilities', {
          raw: '{"connectorId":',
          headers: { 'content-type': 'application/json' },
        }),
        'invalid_request',
      );
      expectFailure(
        await api.call('POST', '/api/public/v1/capabilities', {
          raw: 'connectorId=x',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
        'invalid_request',
      );
      expectFailure(
        await api.call('POST', '/api/public/v1/capabilities', { headers: { 'content-type': 'application/json' } }),
        'invalid_request',
      );
    });
  });
}
