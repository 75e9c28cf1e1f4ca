import { describe, expect, it } from 'vitest';
import type { Exchange } from '../client/http-client.ts';
import {
  decisionReasonRule,
  filterRule,
  issuedKeyRepeats,
  keyOnlyWhereMarkedRule,
  laterReplayProblem,
  rateLimitedConsistencyRule,
  requestIdRepeats,
  selfDescriptionVersionRule,
  tenantEchoRule,
  unlistedCreations,
} from './call-rules.ts';
import { routeOf } from './exchange-scope.ts';

const BASE = 'http://127.0.0.1:4010';
const meta = (requestId = 'req_1', extra: Record<string, unknown> = {}) => ({
  requestId,
  version: '2026-07-01',
  at: '2026-07-01T10:00:00.000Z',
  ...extra,
});
function ex(o: Partial<Exchange> & { body?: unknown; path?: string }): Exchange {
  const { body, path = '/api/public/v1/providers', ...rest } = o;
  return {
    method: 'GET',
    url: `${BASE}${path}`,
    requestHeaders: { authorization: 'Bearer t', 'x-service-tenant': 'harbour' },
    status: 200,
    headers: {},
    text: JSON.stringify(body),
    json: body,
    durationMs: 1,
    attempts: 1,
    ...rest,
  };
}
const judge = (rule: typeof tenantEchoRule, e: Exchange) => {
  const route = routeOf(e, [BASE]);
  if (!route) throw new Error(`no route for ${e.url}`);
  return rule(e, { route, authenticated: true, secrets: [] });
};

describe('tenantEchoRule', () => {
  it('holds data.tenant to the tenant of the call, for every tenant', () => {
    const list = (tenant: string, asked: string) =>
      ex({
        path: '/api/public/v1/connections',
        requestHeaders: { authorization: 'Bearer t', 'X-Service-Tenant': asked },
        body: { ok: true, data: { tenant, count: 0, connections: [] }, meta: meta() },
      });
    expect(judge(tenantEchoRule, list('lakeside', 'lakeside'))).toBeUndefined();
    expect(judge(tenantEchoRule, list('harbour', 'lakeside'))).toMatch(/call was for tenant lakeside/);
  });
});

describe('filterRule', () => {
  const providers = [
    { id: 'p1', category: 'pos' },
    { id: 'p2', category: 'payments' },
  ];
  it('finds a filtered list that lists entries of another value (an unknown value answered with the whole list)', () => {
    const all = ex({
      path: '/api/public/v1/providers?category=no-such',
      body: { ok: true, data: { count: 2, providers } },
    });
    expect(judge(filterRule, all)).toMatch(/category no-such: data.providers\[0\] has category "pos"/);
  });
  it('matches a filter against a listed value or a list of values, and leaves undeclared parameters alone', () => {
    const pos = ex({
      path: '/api/public/v1/providers?category=pos',
      body: { ok: true, data: { count: 1, providers: [providers[0]] } },
    });
    expect(judge(filterRule, pos)).toBeUndefined();
    // The value in other letter case matched (hickory: a case-insensitive filter) is the same value; a prefix is not.
    const cased = ex({
      path: '/api/public/v1/providers?category=POS',
      body: { ok: true, data: { count: 1, providers: [providers[0]] } },
    });
    expect(judge(filterRule, cased)).toBeUndefined();
    const prefix = ex({
      path: '/api/public/v1/providers?category=pa',
      body: { ok: true, data: { count: 1, providers: [providers[1]] } },
    });
    expect(judge(filterRule, prefix)).toMatch(/category pa/);
    const connectors = ex({
      path: '/api/public/v1/connectors?capability=orders.read',
      body: {
        ok: true,
        data: {
          count: 2,
          connectors: [
            { id: 'c1', capabilities: ['orders.read'] },
            { id: 'c2', capabilities: ['menu.read'] },
          ],
        },
      },
    });
    expect(judge(filterRule, connectors)).toMatch(/data.connectors\[1\] has capabilities/);
    const undeclared = ex({
      path: '/api/public/v1/providers?id=zz',
      body: { ok: true, data: { count: 2, providers } },
    });
    expect(judge(filterRule, undeclared)).toBeUndefined();
  });
});

describe('rateLimitedConsistencyRule', () => {
  const limited = (headers: Record<string, string>) =>
    ex({ status: 429, headers, body: { ok: false, error: { code: 'rate_limited', message: 'slow' }, meta: meta() } });
  it('wants a wait of a second or more and no calls left', () => {
    expect(
      judge(rateLimitedConsistencyRule, limited({ 'retry-after': '3', 'x-ratelimit-remaining': '0' })),
    ).toBeUndefined();
    expect(judge(rateLimitedConsistencyRule, limited({ 'retry-after': '0' }))).toMatch(/Retry-After 0/);
    expect(judge(rateLimitedConsistencyRule, limited({ 'retry-after': '2', 'x-ratelimit-remaining': '40' }))).toMatch(
      /Remaining 40/,
    );
  });
});

describe('decisionReasonRule and selfDescriptionVersionRule', () => {
  it('want a reason that says something', () => {
    const decision = (reason: string) =>
      ex({
        method: 'POST',
        path: '/api/public/v1/capabilities',
        body: { ok: true, data: { decision: { reason } }, meta: meta() },
      });
    expect(judge(decisionReasonRule, decision('booked'))).toBeUndefined();
    expect(judge(decisionReasonRule, decision(' '))).toMatch(/reason is " "/);
  });
  it('want the self-description to report the version of its meta (a build number is not judged)', () => {
    const self = (version: string) =>
      ex({ path: '/api/public/v1', body: { ok: true, data: { version, routes: [] }, meta: meta() } });
    expect(judge(selfDescriptionVersionRule, self('2026-07-01'))).toBeUndefined();
    expect(judge(selfDescriptionVersionRule, self('4.2.0'))).toBeUndefined();
    expect(judge(selfDescriptionVersionRule, self('2026-06-12'))).toMatch(
      /data.version 2026-06-12, meta.version 2026-07-01/,
    );
    // Asked under the earlier version: the current version in data describes the service as it stands.
    const earlier = ex({
      path: '/api/public/v1',
      body: { ok: true, data: { version: '2026-07-01', routes: [] }, meta: meta('req_1', { version: '2026-06-12' }) },
    });
    expect(judge(selfDescriptionVersionRule, earlier)).toBeUndefined();
  });
});

describe('run-wide repeats', () => {
  const answer = (requestId: string, replayed?: boolean) =>
    ex({ body: { ok: true, data: {}, meta: meta(requestId, replayed === undefined ? {} : { replayed }) } });
  it('finds a requestId answered twice, replays apart from other calls', () => {
    const a = answer('req_1');
    const twice = [a, a, answer('req_2'), answer('req_1')];
    expect(requestIdRepeats(twice, false).map((p) => p.problem)).toEqual([
      'GET /api/public/v1/providers repeats the requestId req_1 of GET /api/public/v1/providers',
    ]);
    const replay = [answer('req_1'), answer('req_1', true)];
    expect(requestIdRepeats(replay, false)).toEqual([]);
    expect(requestIdRepeats(replay, true)).toHaveLength(1);
  });
  it('finds a key issued twice', () => {
    const issued = (key: string) =>
      ex({
        method: 'POST',
        path: '/api/public/v1/idempotency-keys',
        body: { ok: true, data: { idempotencyKey: key, operation: 'x.y' } },
      });
    const isIssue = (e: Exchange) => e.url.endsWith('/idempotency-keys');
    expect(issuedKeyRepeats([issued('k-1'), issued('k-2')], isIssue)).toEqual([]);
    expect(issuedKeyRepeats([issued('k-1'), issued('k-1')], isIssue)[0]?.problem).toMatch(/k-1 is issued again/);
  });
});

describe('creations and their keys later in the run', () => {
  const creation = (id: string, replayed?: boolean, state = 'pending') =>
    ex({
      method: 'POST',
      path: '/api/public/v1/connections',
      body: { ok: true, data: { id, state, scopeLabel: 'a' }, meta: meta('req_x', replayed ? { replayed } : {}) },
    });
  it("finds a creation its tenant's list does not name", () => {
    const made = [creation('con_1'), creation('con_2')];
    expect(unlistedCreations(made, [{ id: 'con_1' }, { id: 'con_2' }])).toEqual([]);
    expect(unlistedCreations(made, [{ id: 'con_2' }])).toEqual([made[0]]);
  });
  it('wants a later send of the same key to replay the same connection (its state may have moved)', () => {
    const made = creation('con_1');
    expect(laterReplayProblem(made, creation('con_1', true, 'active'))).toBeUndefined();
    expect(laterReplayProblem(made, creation('con_9'))).toBe(
      'answered 200, meta.replayed undefined, data.id con_9 (original con_1)',
    );
  });
});

describe('keyOnlyWhereMarkedRule', () => {
  const refused = { ok: false, error: { code: 'idempotency_required', message: 'send a key' }, meta: meta() };
  it('refuses a 428 for want of a key on an endpoint marked "yes", and leaves "yes + key" endpoints alone', () => {
    const check = ex({ method: 'POST', path: '/api/public/v1/capabilities', status: 428, body: refused });
    expect(judge(keyOnlyWhereMarkedRule, check)).toMatch(/marked "yes" \(no key\)/);
    const issue = ex({ method: 'POST', path: '/api/public/v1/idempotency-keys', status: 428, body: refused });
    expect(judge(keyOnlyWhereMarkedRule, issue)).toMatch(/idempotency-keys is marked/);
    const create = ex({ method: 'POST', path: '/api/public/v1/connections', status: 428, body: refused });
    expect(judge(keyOnlyWhereMarkedRule, create)).toBeUndefined();
  });
});
