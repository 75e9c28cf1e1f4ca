import { defineCheck } from '../runner/check.ts';
import { authenticatedGet, capabilityCheckRoute, errorProbes } from './support/error-probes.ts';
import { pairingProblem } from './errors.ts';

export const missingToken = defineCheck({
  name: 'auth.missing-token',
  title: 'an authenticated endpoint called without a token answers 401 unauthorized',
  severity: 'MUST',
  section: 'Required on every authenticated call',
  tags: ['auth'],
  mutating: false,
  async run(ctx) {
    const probe = (await errorProbes(ctx)).find((p) => p.name === 'missing-token');
    if (!probe) throw new Error('Broken invariant: errorProbes has a missing-token probe');
    ctx.expect.errorCode(probe.ex, 'unauthorized', `${probe.what} answers 401 unauthorized`);
    const post = capabilityCheckRoute();
    const ex = await ctx.call('POST', post.path, {
      credentials: 'none',
      json: { connectorId: ctx.label('connector'), capability: 'ncs-conformance' },
    });
    ctx.expect.errorCode(ex, 'unauthorized', `POST ${post.path} without Authorization answers 401 unauthorized`);
  },
});

export const invalidToken = defineCheck({
  name: 'auth.invalid-token',
  title:
    'an unknown token answers 401 unauthorized; an Authorization header without a bearer token is refused (401 unauthorized, or 400 invalid_request)',
  severity: 'MUST',
  section: 'Required on every authenticated call',
  tags: ['auth'],
  mutating: false,
  async run(ctx) {
    const probe = (await errorProbes(ctx)).find((p) => p.name === 'invalid-token');
    if (!probe) throw new Error('Broken invariant: errorProbes has an invalid-token probe');
    ctx.expect.errorCode(probe.ex, 'unauthorized', `${probe.what} answers 401 unauthorized`);
    const get = authenticatedGet();
    for (const value of ['Basic bmNzLWNvbmZvcm1hbmNlOnByb2Jl', 'Bearer', `Token ${ctx.label('token')}`]) {
      const ex = await ctx.call('GET', get.path, {
        credentials: 'none',
        headers: { authorization: value },
        ...(ctx.target.tenant ? { tenant: ctx.target.tenant } : {}),
      });
      // "Token missing" (401) and "request unsuitable" (400) both fit a header that holds no bearer
      // token; the interface does not choose, so either is accepted.
      const code = (ex.json as { error?: { code?: unknown } } | undefined)?.error?.code;
      ctx.expect.that(
        (ex.status === 401 && code === 'unauthorized') || (ex.status === 400 && code === 'invalid_request'),
        {
          expected: `GET ${get.path} with Authorization: ${value} (not a bearer token) is refused with 401 unauthorized or 400 invalid_request`,
          exchange: ex,
        },
      );
    }
  },
});

export const missingTenant = defineCheck({
  name: 'auth.missing-tenant',
  title: 'an authenticated call without x-service-tenant is refused with an error of the table',
  severity: 'MUST',
  section: 'Required on every authenticated call',
  tags: ['auth', 'tenant'],
  mutating: false,
  requires: ['token'],
  async run(ctx) {
    const probe = (await errorProbes(ctx)).find((p) => p.name === 'missing-tenant');
    if (!probe) throw new Error('Broken invariant: errorProbes has a missing-tenant probe');
    if (
      !ctx.expect.that(probe.ex.status >= 400 && probe.ex.status < 500, {
        expected: `${probe.what} is refused (4xx)`,
        exchange: probe.ex,
      })
    )
      return;
    const problem = pairingProblem(probe.ex);
    ctx.expect.that(problem === undefined, {
      expected: `${probe.what}: a code of the Errors table with its status`,
      observed: problem ?? '',
      exchange: probe.ex,
    });
  },
});

export const missingTenantStatus = defineCheck({
  name: 'auth.missing-tenant-invalid-request',
  title: 'a missing x-service-tenant answers 400 invalid_request (a required header is missing)',
  severity: 'SHOULD',
  section: 'Required on every authenticated call',
  tags: ['auth', 'tenant'],
  mutating: false,
  requires: ['token'],
  async run(ctx) {
    const probe = (await errorProbes(ctx)).find((p) => p.name === 'missing-tenant');
    if (!probe) throw new Error('Broken invariant: errorProbes has a missing-tenant probe');
    // The Errors table fits both readings: a required header missing (400) or a call not signed in for
    // any tenant (401). A 401 unauthorized is that legal choice; anything else is judged.
    if (
      probe.ex.status === 401 &&
      (probe.ex.json as { error?: { code?: unknown } } | undefined)?.error?.code === 'unauthorized'
    )
      ctx.skip('the deployment answers a missing tenant 401 unauthorized, the other reading the Errors table allows');
    ctx.expect.errorCode(probe.ex, 'invalid_request', `${probe.what} answers 400 invalid_request`);
  },
});

export const headerNameCase = defineCheck({
  name: 'auth.header-name-case',
  title: 'header names are case-insensitive (Authorization, x-service-tenant in any letter case)',
  severity: 'MUST',
  section: 'Required on every authenticated call',
  tags: ['auth', 'headers'],
  mutating: false,
  requires: ['token'],
  async run(ctx) {
    const get = authenticatedGet();
    for (const [auth, tenant] of [
      ['AUTHORIZATION', 'X-Service-Tenant'],
      ['authorization', 'X-SERVICE-TENANT'],
      ['Authorization', 'x-Service-tenant'],
    ] as const) {
      const ex = await ctx.call('GET', get.path, { headerNames: { authorization: auth, tenant } });
      ctx.expect.status(ex, 200, `GET ${get.path} with headers named ${auth} and ${tenant} answers 200`);
    }
  },
});

export const authChecks = [missingToken, invalidToken, missingTenant, missingTenantStatus, headerNameCase];
