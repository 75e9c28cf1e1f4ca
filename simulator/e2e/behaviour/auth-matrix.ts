import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../contract/route-table.ts';
import { SCOPE_NAMES } from '../../contract/scopes.ts';
import { client, type Target } from '../harness.ts';
import { expectFailure } from './expect-envelope.ts';
import { clientToken } from './oauth-helpers.ts';

const AUTH_ROUTES = ROUTES.filter((r) => r.auth);

/** A call to the route that would pass everything but authentication (auth is checked first). */
function callOf(route: (typeof ROUTES)[number]) {
  const path = route.path.replace(/\{[^}]+\}/g, 'sample-id');
  const headers: Record<string, string> = route.idempotent ? { 'idempotency-key': 'matrix-key-0001' } : {};
  return { path, opts: { headers, ...(route.method !== 'GET' ? { body: {} } : {}) } };
}

/**
 * The 401/403 matrix, derived from the route table so every new authenticated route is covered:
 * no token and a foreign-environment token -> 401; a token lacking the route's scope -> 403; a
 * token of another tenant -> 403; a token with the scope and the tenant gets past authentication.
 */
export function authMatrixBehaviour(get: () => Target) {
  describe('401/403 matrix over every authenticated route', () => {
    it('every authenticated route names a scope', () => {
      expect(AUTH_ROUTES.length).toBeGreaterThan(0);
      for (const r of AUTH_ROUTES) expect(SCOPE_NAMES, r.id).toContain(r.scope);
    });

    for (const route of AUTH_ROUTES) {
      it(`${route.method} ${route.path} (${route.scope})`, async () => {
        const t = get();
        const api = client(t);
        const { path, opts } = callOf(route);
        const withToken = (token: string | false, tenant = 'harbour-kitchens') =>
          api.call(route.method, path, { ...opts, token, tenant });

        expectFailure(await withToken(false), 'unauthorized');
        expectFailure(await withToken(await clientToken(t, 'pilot-backend')), 'unauthorized');

        const others = SCOPE_NAMES.filter((s) => s !== route.scope).join(' ');
        const lacking = await withToken(await clientToken(t, 'network-integrator', others));
        expect(expectFailure(lacking, 'forbidden').detail).toContain(route.scope);
        expect(lacking.headers.get('www-authenticate')).toContain('insufficient_scope');

        const foreign = await withToken(await clientToken(t, 'alpine-backend', route.scope));
        expect(expectFailure(foreign, 'forbidden').detail).toMatch(/tenant/);

        if (route.kind !== 'sse') {
          const allowed = await withToken(await clientToken(t, 'network-integrator', route.scope));
          expect([401, 403], allowed.text).not.toContain(allowed.status);
          expect(allowed.headers.get('x-ratelimit-limit')).toBeTruthy();
        }
      });
    }
  });
}
