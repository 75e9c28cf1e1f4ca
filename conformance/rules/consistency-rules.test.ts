import { describe, expect, it } from 'vitest';
import type { Exchange } from '../client/http-client.ts';
import {
  capabilityFlagProblems,
  countAgreementRule,
  expiryAfterIssueRule,
  jsonCharsetRule,
  retryAfterSecondsRule,
} from './consistency-rules.ts';
import { routeOf, sentCredentials } from './exchange-scope.ts';

const BASE = 'http://127.0.0.1:4010';
const meta = { requestId: 'req_1', version: '2026-07-01', at: '2026-07-01T10:00:00.000Z' };
function ex(path: string, body: unknown, o: Partial<Exchange> = {}): Exchange {
  return {
    method: 'GET',
    url: `${BASE}/api/public/v1${path}`,
    requestHeaders: { 'x-service-tenant': 't1' },
    status: 200,
    headers: { 'content-type': 'application/json' },
    text: JSON.stringify(body),
    json: body,
    durationMs: 1,
    attempts: 1,
    ...o,
  };
}
const judge = (rule: typeof countAgreementRule, e: Exchange) =>
  rule(e, { route: routeOf(e, [BASE])!, authenticated: sentCredentials(e), secrets: [] });

describe('consistency rules', () => {
  it('count agrees with the list, each entry once, whatever the list', () => {
    const list = (count: number, connections: unknown[]) =>
      ex('/connections', { ok: true, data: { tenant: 't2', count, connections }, meta });
    expect(judge(countAgreementRule, list(2, [{ id: 'a' }, { id: 'b' }]))).toBeUndefined();
    expect(judge(countAgreementRule, list(0, [{ id: 'a' }]))).toMatch(/count 0 but 1/);
    expect(judge(countAgreementRule, list(1, []))).toMatch(/count 1 but 0/);
    expect(judge(countAgreementRule, list(2, [{ id: 'a' }, { id: 'a' }]))).toMatch(/lists a twice/);
    // The audit log's response fields are not shown: a paged log's count may be its total.
    const page = ex('/audit-log', { ok: true, data: { count: 46, results: [{ id: 'e1' }] }, meta });
    expect(judge(countAgreementRule, page)).toBeUndefined();
  });

  it('a page of a longer list may count the whole list, where it offers the next or names the previous page', () => {
    const paged = (data: Record<string, unknown>, headers: Record<string, string> = {}) =>
      ex(
        '/connections',
        { ok: true, data: { tenant: 't1', ...data }, meta },
        { headers: { 'content-type': 'application/json', ...headers } },
      );
    const first = [{ id: 'a' }, { id: 'b' }];
    expect(
      judge(
        countAgreementRule,
        paged({ count: 3, next: `${BASE}/api/public/v1/connections?page=2`, connections: first }),
      ),
    ).toBeUndefined();
    expect(
      judge(
        countAgreementRule,
        paged({ count: 3, previous: '/api/public/v1/connections', next: null, connections: [{ id: 'c' }] }),
      ),
    ).toBeUndefined();
    expect(
      judge(
        countAgreementRule,
        paged({ count: 3, connections: first }, { link: '</api/public/v1/connections?page=2>; rel="next"' }),
      ),
    ).toBeUndefined();
    // Without a way to the rest, or counting fewer than it lists, or listing nothing: as before.
    expect(judge(countAgreementRule, paged({ count: 3, next: null, connections: first }))).toMatch(/count 3 but 2/);
    expect(
      judge(countAgreementRule, paged({ count: 1, next: '/api/public/v1/connections?page=2', connections: first })),
    ).toMatch(/count 1 but 2/);
    expect(
      judge(countAgreementRule, paged({ count: 3, next: '/api/public/v1/connections?page=2', connections: [] })),
    ).toMatch(/count 3 but 0/);
    expect(
      judge(countAgreementRule, paged({ count: 3, next: '/x?page=2', connections: [{ id: 'a' }, { id: 'a' }] })),
    ).toMatch(/twice/);
  });

  it('a key issued now expires after the answer', () => {
    const key = (expiresAt: string) =>
      ex(
        '/idempotency-keys',
        { ok: true, data: { idempotencyKey: 'k', operation: 'x.y', expiresAt }, meta },
        { method: 'POST' },
      );
    expect(judge(expiryAfterIssueRule, key('2026-07-02T10:00:00Z'))).toBeUndefined();
    expect(judge(expiryAfterIssueRule, key('2026-06-30T10:00:00Z'))).toMatch(/already expired/);
  });

  it('JSON names no charset but UTF-8 (SHOULD)', () => {
    const body = { ok: true, data: { count: 0, providers: [] }, meta };
    expect(
      judge(
        jsonCharsetRule,
        ex('/providers', body, { headers: { 'content-type': 'application/json; charset=UTF-8' } }),
      ),
    ).toBeUndefined();
    expect(judge(jsonCharsetRule, ex('/providers', body))).toBeUndefined();
    expect(
      judge(
        jsonCharsetRule,
        ex('/providers', body, { headers: { 'content-type': 'application/json; charset=iso-8859-1' } }),
      ),
    ).toMatch(/UTF-8/);
  });

  it('a Retry-After of more than an hour is flagged (milliseconds?)', () => {
    const limited = (wait: string) =>
      ex(
        '/providers',
        { ok: false, error: { code: 'rate_limited', message: 'slow' }, meta },
        { status: 429, headers: { 'retry-after': wait } },
      );
    expect(judge(retryAfterSecondsRule, limited('30'))).toBeUndefined();
    expect(judge(retryAfterSecondsRule, limited('30000'))).toMatch(/milliseconds/);
  });

  it('a capability carries the same flags in the catalog, decisions and connections', () => {
    const catalog = ex('/capabilities', {
      ok: true,
      data: {
        count: 1,
        capabilities: [{ id: 'orders.read', label: 'R', critical: false, idempotencyRequired: false }],
      },
      meta,
    });
    const decision = (critical: boolean) =>
      ex(
        '/capabilities',
        {
          ok: true,
          data: {
            decision: {
              connectorId: 'c',
              capability: 'orders.read',
              allowed: true,
              critical,
              idempotencyRequired: false,
              reason: 'ok',
            },
            environment: 'sandbox',
          },
          meta,
        },
        { method: 'POST' },
      );
    expect(capabilityFlagProblems([catalog, decision(false)])).toEqual([]);
    expect(capabilityFlagProblems([catalog, decision(true)])[0]?.problem).toMatch(
      /orders.read: critical true here, false in GET/,
    );
    const created = ex(
      '/connections',
      {
        ok: true,
        data: {
          id: 'con_1',
          capabilities: [{ capability: 'orders.read', critical: false, idempotencyRequired: true }],
        },
        meta,
      },
      { method: 'POST' },
    );
    expect(capabilityFlagProblems([catalog, created])[0]?.problem).toMatch(/idempotencyRequired true/);
  });
});
