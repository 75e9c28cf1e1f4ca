import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SelfDescriptionData } from '../../contract/discovery.ts';
import { ROUTES } from '../../contract/route-table.ts';
import { client, type Target } from '../harness.ts';
import { expectFailure, expectSuccess } from './expect-envelope.ts';

export function discoveryBehaviour(get: () => Target) {
  describe('discovery', () => {
    it('GET /api/public/v1 describes the service without credentials', async () => {
      const api = client(get());
      const data = expectSuccess(
        await api.call('GET', '/api/public/v1', { token: false, tenant: false }),
        SelfDescriptionData,
      );
      expect(data.service).toBe('Network Connections Service');
      expect(data.version).toBe('2026-07-01');
      expect(data.routes).toContainEqual({
        method: 'GET',
        path: '/api/public/v1/providers',
        purpose: 'list providers',
        auth: true,
      });
      expect((data.idempotency as { header: string }).header).toBe('Idempotency-Key');
    });

    it('self-description routes and OpenAPI operations are the same set', async () => {
      const api = client(get());
      const routes = expectSuccess(await api.call('GET', '/api/public/v1', { token: false })).routes as {
        method: string;
        path: string;
        auth: boolean;
      }[];
      const doc = (await api.call('GET', '/api/public/v1/openapi.json', { token: false })).json;
      const ops: string[] = [];
      for (const [path, item] of Object.entries<Record<string, { security?: unknown[] }>>(doc.paths)) {
        for (const [method, op] of Object.entries(item)) {
          ops.push(
            `${method.toUpperCase()} ${path} ${(op.security ?? []).length > 0 && !(op.security ?? []).some((s) => Object.keys(s as object).length === 0)}`,
          );
        }
      }
      expect(routes.map((r) => `${r.method} ${r.path} ${r.auth}`).sort()).toEqual(ops.sort());
    });

    it('serves openapi.json as a raw OpenAPI 3.1 document', async () => {
      const res = await client(get()).call('GET', '/api/public/v1/openapi.json', { token: false });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      expect(res.json.openapi).toBe('3.1.0');
      expect(res.json.info.version).toBe('2026-07-01');
      expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    });

    it('serves YAML and earlier published versions', async () => {
      const api = client(get());
      const yaml = await api.call('GET', '/api/public/v1/openapi.yaml', { token: false });
      expect(yaml.headers.get('content-type')).toMatch(/yaml/);
      expect(parse(yaml.text).openapi).toBe('3.1.0');
      const old = await api.call('GET', '/api/public/v1/openapi.json?version=2026-06-12', { token: false });
      expect(old.json.info.version).toBe('2026-06-12');
      expect(old.headers.get('content-disposition')).toContain('ncs-openapi-2026-06-12.json');
      expectFailure(
        await api.call('GET', '/api/public/v1/openapi.json?version=2020-01-01', { token: false }),
        'invalid_request',
      );
    });

    it('GET /info tells who is calling', async () => {
      const api = client(get());
      const data = expectSuccess(await api.call('GET', '/api/public/v1/info'));
      expect(data).toMatchObject({ tenant: 'harbour-kitchens', environment: 'sandbox', version: '2026-07-01' });
      expect(data.client).toMatchObject({ id: 'harbour-backend', owner: 'ada.baker@example.com' });
      expect(data.client.purpose).toBeTruthy();
    });

    it('every route of the table is answered (never a silent 404)', async () => {
      const api = client(get());
      for (const r of ROUTES.filter((x) => x.kind !== 'sse')) {
        const res = await api.call(r.method, r.path.replace(/\{[^}]+\}/g, 'x-unknown'), {
          token: false,
          tenant: false,
        });
        expect(res.json?.error?.detail ?? '', `${r.method} ${r.path}`).not.toMatch(/^No route/);
      }
    });
  });
}
