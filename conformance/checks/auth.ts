import { randomBytes } from 'node:crypto';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { pairingProblem } from './errors.ts';
import { authenticatedGet, capabilityCheckRoute, errorProbe } from './support/error-probes.ts';
import { otherPlaces } from './support/places.ts';

export const missingToken = defineCheck({
  name: 'auth.missing-token',
  title: 'an authenticated endpoint called without a token answers 401 unauthorized',
  severity: 'MUST',
  section: 'Required on every authenticated call',
  tags: ['auth'],
  mutating: false,
  async run(ctx) {
    const probe = await errorProbe(ctx, 'missing-token');
    ctx.expect.errorCode(probe.ex, 'unauthorized', `${probe.what} answers 401 unauthorized`);
    const post = capabilityCheckRoute();
    const ex = await ctx.call('POST', post.path, {
      credentials: 'none',
      json: { connectorId: ctx.label('connector'), capability: 'ncs-conformance' },
    });
    ctx.expect.errorCode(ex, 'unauthorized', `POST ${post.path} without Authorization answers 401 unauthorized`);
    await judgeElsewhere(ctx, 'without Authorization', {});
  },
});

/**
 * The same refusal in every other place (the alternate address, the second tenant's header, both): the call is
 * not signed in wherever it is sent, whichever tenant it names (a tenant lookup before the token's is a 403 there).
 */
async function judgeElsewhere(ctx: CheckContext, what: string, headers: Record<string, string>) {
  const get = authenticatedGet();
  for (const p of otherPlaces(ctx)) {
    const ex = await ctx.call('GET', get.path, {
      credentials: 'none',
      headers,
      ...(p.call.base ? { base: p.call.base } : {}),
      tenant: p.call.tenant ?? ctx.target.tenant ?? false,
    });
    ctx.expect.errorCode(ex, 'unauthorized', `GET ${get.path} ${p.what} ${what} answers 401 unauthorized`);
  }
}

export const invalidToken = defineCheck({
  name: 'auth.invalid-token',
  title:
    'an unknown token answers 401 unauthorized; an Authorization header without a bearer token is refused (401 unauthorized, or 400 invalid_request)',
  severity: 'MUST',
  section: 'Required on every authenticated call',
  tags: ['auth'],
  mutating: false,
  async run(ctx) {
    const probe = await errorProbe(ctx, 'invalid-token');
    ctx.expect.errorCode(probe.ex, 'unauthorized', `${probe.what} answers 401 unauthorized`);
    await judgeElsewhere(ctx, 'with an unknown bearer token', {
      authorization: `Bearer ${ctx.label('invalid-token')}`,
    });
    const get = authenticatedGet();
    // The run's own token with one character changed past its start, and with one more at its end: a
    // deployment comparing a prefix (or a hash of one) would take them for the token.
    if (ctx.target.hasToken) {
      const sent = (await ctx.call('GET', get.path)).requestHeaders.authorization ?? '';
      const token = /^Bearer (.{20,})$/.exec(sent)?.[1];
      if (token) {
        const at = Math.max(16, Math.floor(token.length / 2));
        const changed = `${token.slice(0, at)}${token[at] === 'a' ? 'b' : 'a'}${token.slice(at + 1)}`;
        ctx.redact(changed, 'NCS_TOKEN_CHANGED');
        for (const [what, value] of [
          [`the run's token with its character ${at + 1} changed`, changed],
          ["the run's token with one character added", `${token}a`],
        ] as const) {
          const ex = await ctx.call('GET', get.path, {
            credentials: 'none',
            headers: { authorization: `Bearer ${value}` },
            ...(ctx.target.tenant ? { tenant: ctx.target.tenant } : {}),
          });
          ctx.expect.errorCode(ex, 'unauthorized', `GET ${get.path} with ${what} answers 401 unauthorized`);
        }
      }
    }
    // A token shaped as access tokens usually are (a JWT of some 200 characters, signed by no key the service
    // holds: a token of another environment, "wrong environment"), refused as unknown, not as a malformed request.
    const foreign = foreignJwt(ctx.label('foreign-jwt'));
    const jwt = await ctx.call('GET', get.path, {
      credentials: 'none',
      headers: { authorization: `Bearer ${foreign}` },
      ...(ctx.target.tenant ? { tenant: ctx.target.tenant } : {}),
    });
    ctx.expect.errorCode(
      jwt,
      'unauthorized',
      `GET ${get.path} with a JWT-shaped bearer token of ${foreign.length} characters the service never issued answers 401 unauthorized`,
    );
    // A token the service never issued, on a POST at every address the interface is offered (a gateway that
    // checks tokens on reads only, or at one address, takes the call for another session's).
    const post = capabilityCheckRoute();
    for (const base of [undefined, ...(ctx.target.altBaseUrl ? (['alt'] as const) : [])]) {
      const ex = await ctx.call('POST', post.path, {
        credentials: 'none',
        headers: { authorization: `Bearer ${ctx.label('unknown-token')}` },
        json: { connectorId: ctx.label('connector'), capability: 'ncs-conformance' },
        ...(ctx.target.tenant ? { tenant: ctx.target.tenant } : {}),
        ...(base ? { base } : {}),
      });
      ctx.expect.errorCode(
        ex,
        'unauthorized',
        `POST ${post.path}${base ? ' at the alternate base URL' : ''} with a bearer token the service never issued answers 401 unauthorized`,
      );
    }
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

export const tokenInHeaderOnly = defineCheck({
  name: 'auth.token-in-header-only',
  title:
    'a bearer token sent only in the query (access_token) does not authenticate: 401 unauthorized (or 400 invalid_request refusing the parameter)',
  severity: 'MUST',
  section: 'Required on every authenticated call',
  tags: ['auth'],
  mutating: false,
  requires: ['token'],
  async run(ctx) {
    // The Authorization header is "required on every authenticated call": a call without it lacks the
    // token, wherever else it carries one (RFC 6750 §2.3's query form also puts it in every log and
    // browser history, which the interface's credential rules rule out).
    const get = authenticatedGet();
    const ex = await ctx.call('GET', get.path, { tokenIn: 'query' });
    // A deployment that refuses query parameters it does not describe answers 400 before authenticating
    // (the interface orders no refusals): the token still did not authenticate.
    const code = (ex.json as { error?: { code?: unknown } } | undefined)?.error?.code;
    if (ex.status === 400 && code === 'invalid_request') {
      ctx.note(
        `GET ${get.path}?access_token=<token> was refused 400 invalid_request (an undescribed parameter): not authenticated`,
      );
      return;
    }
    ctx.expect.errorCode(
      ex,
      'unauthorized',
      `GET ${get.path}?access_token=<token> without an Authorization header answers 401 unauthorized (or 400 invalid_request for the parameter)`,
    );
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
    const probe = await errorProbe(ctx, 'missing-tenant');
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
    const probe = await errorProbe(ctx, 'missing-tenant');
    // The Errors table fits three readings: a required header missing (400), a call not signed in for any
    // tenant (401 unauthorized), or an access no tenant is released for (403 forbidden: "tenant not
    // released"). The other two are legal choices; anything else is judged.
    const code = (probe.ex.json as { error?: { code?: unknown } } | undefined)?.error?.code;
    const other = [
      [401, 'unauthorized'],
      [403, 'forbidden'],
    ].find(([status, c]) => probe.ex.status === status && code === c);
    if (other)
      ctx.skip(
        `the deployment answers a missing tenant ${other[0]} ${other[1]}, another reading the Errors table allows`,
      );
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

/**
 * SHOULD (Authentication: "Bearer token obtained through an OAuth flow"): the scheme's name is a token HTTP
 * reads in any letter case (RFC 9110 §11.1, RFC 6750 §2.1's `Bearer`); a client library writing `bearer` is
 * still signed in. SHOULD: the interface writes `Bearer` and says nothing of the case.
 */
export const schemeCase = defineCheck({
  name: 'auth.scheme-case-insensitive',
  title: 'the Authorization scheme is read in any letter case (bearer, BEARER): the token still signs the call in',
  severity: 'SHOULD',
  section: 'Required on every authenticated call',
  tags: ['auth', 'headers'],
  mutating: false,
  requires: ['token'],
  async run(ctx) {
    const get = authenticatedGet();
    for (const scheme of ['bearer', 'BEARER']) {
      let ex = await ctx.call('GET', get.path, { authScheme: scheme });
      // A token that expired in flight (cottonwood's 2 s tokens on a loaded machine) is renewed and the call
      // sent again at once: a scheme refused is refused again with the fresh token.
      if (ex.status === 401 && (await ctx.renewToken())) ex = await ctx.call('GET', get.path, { authScheme: scheme });
      ctx.expect.status(
        ex,
        200,
        `GET ${get.path} with "Authorization: ${scheme} <token>" answers 200 (RFC 9110 §11.1)`,
      );
    }
  },
});

export const authChecks = [
  missingToken,
  invalidToken,
  tokenInHeaderOnly,
  missingTenant,
  missingTenantStatus,
  headerNameCase,
  schemeCase,
];

/**
 * A JWT-shaped token no service issued: a header, claims naming `subject` and an hour of validity, and 32 random
 * bytes as its signature, each base64url.
 * @example foreignJwt('ncs-conformance-1-foreign-jwt') // 'eyJhbGciOiJIUzI1NiIs….eyJzdWIiOiJuY3Mt….Zm9v…'
 */
function foreignJwt(subject: string): string {
  const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const claims = { iss: 'https://auth.other-environment.example', sub: subject, aud: 'ncs', iat: now, exp: now + 3600 };
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}.${randomBytes(32).toString('base64url')}`;
}
