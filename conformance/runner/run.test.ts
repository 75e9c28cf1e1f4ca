import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../simulator/app/sandbox.ts';
import { CURRENT_VERSION, SUPPORTED_VERSIONS } from '../../simulator/contract/versions.ts';
import { authFlagsObserved, openApiValid, publicEndpoints } from '../checks/discovery.ts';
import { responseSchemaOpenApi } from '../checks/envelope.ts';
import type { FetchLike } from '../client/http-client.ts';
import { testCheck } from '../test-support/test-check.ts';
import type { CheckDef } from './check.ts';
import type { RunEvent } from './events.ts';
import { runConformance } from './run.ts';

const main = createSandbox();
const pilot = createSandbox({
  environment: 'pilot',
  baseUrl: 'https://pilot.sandbox.example',
  altBaseUrl: 'https://pilot-alt.sandbox.example',
});
const server = setupServer(...main.handlers, ...pilot.handlers);
// Looked up per call: MSW replaces globalThis.fetch when the server starts listening.
const fetch: FetchLike = (url, init) => globalThis.fetch(url, init);
beforeAll(async () => {
  server.listen({ onUnhandledFrame: 'error' });
  await Promise.all([main.ready, pilot.ready]);
});
afterAll(() => server.close());

const check = testCheck;

const PROVIDERS = '/api/public/v1/providers';
const CHECKS: CheckDef[] = [
  check('demo.passes', {
    async run(ctx) {
      ctx.expect.status(await ctx.call('GET', PROVIDERS), 200, 'answers 200');
    },
  }),
  check('demo.must-fails', {
    requires: ['token'],
    async run(ctx) {
      ctx.expect.status(
        await ctx.call('GET', PROVIDERS, { tenant: false }),
        200,
        `GET ${PROVIDERS} without tenant answers 200`,
      );
    },
  }),
  check('demo.should-fails', {
    severity: 'SHOULD',
    async run(ctx) {
      ctx.fail({ expected: 'something advisory', observed: 'not so' });
    },
  }),
  check('demo.modifies', {
    mutating: true,
    async run(ctx) {
      ctx.note(ctx.label('connection'));
    },
  }),
  check('demo.needs-alt', {
    requires: ['alt-base-url'],
    async run(ctx) {
      ctx.expect.status(await ctx.call('GET', PROVIDERS, { base: 'alt' }), 200, 'alt answers');
    },
  }),
  check('demo.broken', {
    async run() {
      throw new TypeError('bug in the check');
    },
  }),
  check('demo.skips-itself', {
    async run(ctx) {
      ctx.skip('nothing to judge here');
    },
  }),
];

async function run(sandbox: Sandbox, over: Parameters<typeof runConformance>[0] = {}) {
  const events: RunEvent[] = [];
  const { token, tenant } = sandbox.issueToken();
  const result = await runConformance({
    baseUrl: sandbox.baseUrl,
    token,
    tenant,
    fetch,
    checks: CHECKS,
    onEvent: (e) => events.push(e),
    ...over,
  });
  return { result, events, token };
}

describe('runConformance', () => {
  it('streams run-start, one start and one result per check, run-end; MUST failures give exit code 1', async () => {
    const { result, events } = await run(main);
    expect(events[0]!.type).toBe('run-start');
    expect(events.at(-1)!.type).toBe('run-end');
    const status = Object.fromEntries(result.results.map((r) => [r.check.name, r.status]));
    expect(status).toEqual({
      'demo.passes': 'pass',
      'demo.must-fails': 'fail',
      'demo.should-fails': 'fail',
      'demo.modifies': 'pass',
      'demo.needs-alt': 'skip',
      'demo.broken': 'fail',
      'demo.skips-itself': 'skip',
    });
    for (const r of result.results.filter((x) => x.status !== 'skip' || x.check.name === 'demo.skips-itself')) {
      const started = events.findIndex((e) => e.type === 'check-start' && e.check.name === r.check.name);
      const ended = events.findIndex((e) => 'result' in e && e.result.check.name === r.check.name);
      expect(started, r.check.name).toBeGreaterThan(0);
      expect(ended).toBeGreaterThan(started);
    }
    expect(result.results.find((r) => r.check.name === 'demo.needs-alt')!.reason).toMatch(/--alt-base-url/);
    expect(result.results.find((r) => r.check.name === 'demo.broken')).toMatchObject({
      errorKind: 'fault',
      error: expect.stringMatching(/bug in the check/),
    });
    expect(result.summary).toMatchObject({
      total: 7,
      passed: 2,
      failed: 3,
      skipped: 2,
      mustFailed: 2,
      shouldFailed: 1,
      errored: 1,
    });
    expect(result.exitCode).toBe(1);
  });

  it('gives each failure its evidence, with the token replaced by $NCS_TOKEN everywhere', async () => {
    const { result, events, token } = await run(main);
    const [failure] = result.results.find((r) => r.check.name === 'demo.must-fails')!.failures;
    expect(failure).toMatchObject({
      expected: `GET ${PROVIDERS} without tenant answers 200`,
      observed: expect.stringMatching(/^400 invalid_request/),
      request: `GET ${main.baseUrl}${PROVIDERS}`,
      status: 400,
      requestId: expect.stringMatching(/^req_/),
    });
    // Service-Version goes with every call of the kit, as the interface's sample calls send it.
    expect(failure!.curl).toBe(
      `curl -sS -i '${main.baseUrl}${PROVIDERS}' -H 'Service-Version: ${CURRENT_VERSION}' -H 'authorization: Bearer '"$NCS_TOKEN"`,
    );
    expect(JSON.stringify(events)).not.toContain(token);
  });

  it('an advisory (SHOULD) failure alone leaves the exit code at 0', async () => {
    const { result } = await run(main, {
      checks: CHECKS.filter((c) => ['demo.passes', 'demo.should-fails'].includes(c.name)),
    });
    expect([result.exitCode, result.summary.shouldFailed]).toEqual([0, 1]);
  });

  it('makes no modifying call in the read-only profile, nor against production without --allow-mutations', async () => {
    const reason = async (over: Parameters<typeof runConformance>[0]) =>
      (await run(main, { checks: CHECKS.filter((c) => c.name === 'demo.modifies'), ...over })).result.results[0]!;
    expect((await reason({ profile: 'read-only' })).reason).toBe('the read-only profile makes no modifying call');
    expect((await reason({ environment: 'production' })).reason).toBe('the read-only profile makes no modifying call');
    expect((await reason({ environment: 'production', profile: 'full' })).reason).toMatch(
      /production: modifying checks need --allow-mutations/,
    );
    const allowed = await reason({ environment: 'production', profile: 'full', allowMutations: true });
    expect(allowed.status).toBe('pass');
    expect(allowed.notes[0]).toMatch(/^ncs-conformance-[0-9a-f]{8}-connection-1$/);
  });

  it("reads the self-description and openapi.json once a run: the identity probe's reads are the checks' shared reads", async () => {
    const reads = new Map<string, number>();
    const counting: FetchLike = (url, init) => {
      // A read asking for the earlier version (discovery.public-endpoints: public under it too) is another read.
      const version = Object.entries(init.headers).find(([h]) => h.toLowerCase() === 'service-version')?.[1];
      const earlier = version === SUPPORTED_VERSIONS[1] ? ` (Service-Version ${version})` : '';
      const key = `${init.method} ${new URL(url).pathname}${Object.keys(init.headers).some((h) => h.toLowerCase() === 'authorization') ? ' (credentials)' : ''}${earlier}`;
      reads.set(key, (reads.get(key) ?? 0) + 1);
      return fetch(url, init);
    };
    const { result } = await run(main, {
      fetch: counting,
      checks: [publicEndpoints, authFlagsObserved, openApiValid, responseSchemaOpenApi],
    });
    expect(result.results.map((r) => r.status)).toEqual(['pass', 'pass', 'pass', 'pass']);
    expect(reads.get('GET /api/public/v1')).toBe(1);
    expect(reads.get('GET /api/public/v1/openapi.json')).toBe(1);
    // Not one of the shared reads: the auth-flag probe reads the YAML download itself.
    expect(reads.get('GET /api/public/v1/openapi.yaml')).toBe(1);
    expect(reads.get(`GET /api/public/v1 (Service-Version ${SUPPORTED_VERSIONS[1]})`)).toBe(1);
  });

  it('learns the environment from GET /info', async () => {
    const { token, tenant } = pilot.issueToken('pilot-backend');
    const events: RunEvent[] = [];
    await runConformance({
      baseUrl: pilot.baseUrl,
      token,
      tenant,
      fetch,
      checks: [CHECKS[0]!],
      onEvent: (e) => events.push(e),
    });
    expect(events[0]).toMatchObject({
      type: 'run-start',
      target: { environment: 'pilot', credentials: 'token' },
      profile: 'full',
    });
  });

  it('obtains a token with client credentials and keeps the secret out of every event', async () => {
    const forms: string[] = [];
    const withTokenEndpoint: FetchLike = async (url, init) => {
      if (url === 'https://auth.sandbox.example/oauth/token') {
        forms.push(`${init.headers.authorization} ${init.body}`);
        return new Response(
          JSON.stringify({ access_token: main.issueToken().token, token_type: 'Bearer', expires_in: 900 }),
          { headers: { 'content-type': 'application/json' } },
        );
      }
      return fetch(url, init);
    };
    const events: RunEvent[] = [];
    const { exitCode } = await runConformance({
      baseUrl: main.baseUrl,
      tenant: 'harbour-kitchens',
      clientId: 'harbour-backend',
      clientSecret: 'hk-sandbox-secret-5f2c9a7e1b3d4c60',
      tokenUrl: 'https://auth.sandbox.example/oauth/token',
      fetch: withTokenEndpoint,
      checks: [CHECKS[0]!],
      onEvent: (e) => events.push(e),
    });
    expect(exitCode).toBe(0);
    expect(forms).toEqual([
      `Basic ${Buffer.from('harbour-backend:hk-sandbox-secret-5f2c9a7e1b3d4c60').toString('base64')} grant_type=client_credentials`,
    ]);
    expect(events[0]).toMatchObject({ target: { credentials: 'client-credentials' } });
    expect(JSON.stringify(events)).not.toContain('hk-sandbox-secret');
  });

  it('exit code 2 for usage errors, an unreachable target, a refused token and a target lost mid-run', async () => {
    const usage = await runConformance({ fetch });
    expect([usage.exitCode, usage.error]).toEqual([2, '--base-url is required (or NCS_BASE_URL)']);
    const nothing = await runConformance({
      baseUrl: 'https://nowhere.sandbox.example',
      fetch: async () => {
        throw new TypeError('fetch failed');
      },
    });
    expect(nothing.exitCode).toBe(2);
    expect(nothing.error).toMatch(/cannot reach https:\/\/nowhere\.sandbox\.example\/api\/public\/v1/);
    const refused = await runConformance({
      baseUrl: main.baseUrl,
      tenant: 't',
      clientId: 'x',
      clientSecret: 'wrong-secret-123',
      fetch,
      checks: CHECKS,
    });
    expect(refused.exitCode).toBe(2);
    expect(refused.error).toMatch(/token endpoint .* answered/);
    let calls = 0;
    const dies: FetchLike = async (url, init) => {
      // The preflight (self-description, OpenAPI document) and GET /info get through; the check's own call does not.
      if (++calls > 3) throw new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } });
      return fetch(url, init);
    };
    const lost = await run(main, { fetch: dies, checks: [CHECKS[0]!] });
    expect(lost.result.exitCode).toBe(2);
    expect(lost.result.results[0]).toMatchObject({
      errorKind: 'connection',
      error: expect.stringMatching(/ECONNRESET/),
    });
    expect(lost.result.error).toMatch(/stopped answering/);
  });

  it('credentials the deployment refuses (401 on the first authenticated call) stop the run: exit 2, no check ran', async () => {
    const events: RunEvent[] = [];
    const result = await runConformance({
      baseUrl: main.baseUrl,
      token: 'ncs_at_not-a-token-it-knows',
      tenant: 'harbour-kitchens',
      fetch,
      checks: CHECKS,
      onEvent: (e) => events.push(e),
    });
    expect(result.exitCode).toBe(2);
    expect(result.error).toMatch(
      /^credentials refused: .*\/info answered 401 to the token .* harbour-kitchens; no check ran$/,
    );
    expect(result.error).not.toContain('not-a-token-it-knows');
    expect(result.results).toEqual([]);
    expect(events.map((e) => e.type)).toEqual(['run-end']);
    // The same run with a token the deployment knows goes on to judge the checks.
    expect((await run(main)).result.results).toHaveLength(CHECKS.length);
  });

  it('a --grep that matches nothing is a usage error', async () => {
    const { result } = await run(main, { grep: 'no-such-check' });
    expect([result.exitCode, result.error]).toEqual([2, 'no check matches --grep /no-such-check/i']);
  });
});
