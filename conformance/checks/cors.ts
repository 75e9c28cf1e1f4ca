import { defineCheck } from '../runner/check.ts';
import { authenticatedGet } from './support/error-probes.ts';

const ORIGIN = 'https://ncs-conformance.invalid';

export const noCorsOnAuthenticated = defineCheck({
  name: 'cors.none-on-authenticated',
  title: 'authenticated endpoints grant no cross-origin access (no Access-Control-Allow-* headers, no preflight)',
  severity: 'SHOULD',
  section: 'What the service does',
  tags: ['cors', 'security', 'advisory'],
  mutating: false,
  async run(ctx) {
    const get = authenticatedGet();
    const calls = [
      ctx.call('OPTIONS', get.path, {
        credentials: 'none',
        headers: {
          Origin: ORIGIN,
          'Access-Control-Request-Method': 'GET',
          'Access-Control-Request-Headers': 'authorization, x-service-tenant',
        },
      }),
      ctx.call('GET', get.path, { credentials: 'none', headers: { Origin: ORIGIN } }),
    ];
    if (ctx.target.hasToken) calls.push(ctx.call('GET', get.path));
    for (const ex of await Promise.all(calls)) {
      const granted = Object.keys(ex.headers).filter((h) => h.startsWith('access-control-allow-'));
      ctx.expect.that(granted.length === 0, {
        expected: `${ex.method} ${get.path}: the interface is called from servers only, so no CORS grant`,
        observed: granted.map((h) => `${h}: ${ex.headers[h]}`).join(', '),
        exchange: ex,
      });
    }
  },
});

export const corsChecks = [noCorsOnAuthenticated];
