import { describe, expect, it } from 'vitest';
import type { Exchange } from '../client/http-client.ts';
import { routeOf, sentCredentials } from './exchange-scope.ts';
import {
  codeStatusRule,
  envelopeRule,
  jsonContentTypeRule,
  metaRule,
  noLeaksRule,
  rateLimitHeadersRule,
  requestIdHeaderRule,
  successEnvelopeProblem,
} from './response-rules.ts';

const BASE = 'http://127.0.0.1:4010';
const meta = { requestId: 'req_1', version: '2026-07-01', at: '2026-07-01T10:00:00.000Z' };
function ex(o: Partial<Exchange> & { body?: unknown }): Exchange {
  const text = o.body === undefined ? (o.text ?? '') : JSON.stringify(o.body);
  return {
    method: 'GET',
    url: `${BASE}/api/public/v1/providers`,
    requestHeaders: { authorization: 'Bearer tok_secret_123', 'x-service-tenant': 't1' },
    status: 200,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'x-request-id': 'req_1',
      'x-ratelimit-limit': '600',
      'x-ratelimit-remaining': '599',
    },
    text,
    json: o.body,
    durationMs: 1,
    attempts: 1,
    ...o,
  };
}
const info = (e: Exchange) => ({
  route: routeOf(e, [BASE])!,
  authenticated: sentCredentials(e),
  secrets: [{ value: 'tok_secret_123', what: 'the token' }],
});
const judge = (rule: typeof envelopeRule, e: Exchange) => rule(e, info(e));

describe('response rules', () => {
  const good = ex({ body: { ok: true, data: { count: 0, providers: [] }, meta } });
  const notFound = ex({ status: 404, body: { ok: false, error: { code: 'not_found', message: 'gone' }, meta } });

  it('pass a conformant success and error', () => {
    for (const rule of [
      envelopeRule,
      metaRule,
      codeStatusRule,
      jsonContentTypeRule,
      requestIdHeaderRule,
      noLeaksRule,
      rateLimitHeadersRule,
    ])
      for (const e of [good, notFound]) expect(judge(rule, e)).toBeUndefined();
  });

  it('find a broken envelope, a non-200 success and a broken meta', () => {
    expect(judge(envelopeRule, ex({ body: { data: {}, meta } }))).toMatch(/success envelope: ok/);
    expect(judge(envelopeRule, ex({ status: 201, body: { ok: true, data: {}, meta } }))).toMatch(/201/);
    expect(judge(envelopeRule, ex({ status: 400, text: 'bad', json: undefined }))).toMatch(/not JSON/);
    expect(judge(metaRule, ex({ body: { ok: true, data: {}, meta: { ...meta, at: 12 } } }))).toMatch(/^meta: at/);
  });

  it('take meta.at as RFC 3339 writes it: microseconds, lower-case t and z (5.6), any offset', () => {
    for (const at of ['2026-07-01t10:00:00.123456z', '2026-07-01T12:00:00.123456+02:00'])
      expect(judge(metaRule, ex({ body: { ok: true, data: {}, meta: { ...meta, at } } })), at).toBeUndefined();
    expect(
      judge(metaRule, ex({ body: { ok: true, data: {}, meta: { ...meta, at: '2026-07-01 10:00:00Z' } } })),
    ).toMatch(/^meta: at/);
  });

  it('hold meta.version to a published version, even when the caller asked for an unknown one', () => {
    const asked = { ...ex({}).requestHeaders, 'service-version': '1999-01-01' };
    const echoed = ex({
      requestHeaders: asked,
      body: { ok: true, data: {}, meta: { ...meta, version: '1999-01-01' } },
    });
    expect(judge(metaRule, echoed)).toMatch(/not a published version/);
    const earlier = ex({
      requestHeaders: asked,
      body: { ok: true, data: {}, meta: { ...meta, version: '2026-06-12' } },
    });
    expect(judge(metaRule, earlier)).toBeUndefined();
  });

  it('pair codes with statuses from the Errors table', () => {
    const wrong = ex({ status: 404, body: { ok: false, error: { code: 'invalid_request', message: 'x' }, meta } });
    expect(judge(codeStatusRule, wrong)).toBe('error.code invalid_request belongs with 400, answered 404');
    const unknown = ex({ status: 400, body: { ok: false, error: { code: 'nope', message: 'x' }, meta } });
    expect(judge(codeStatusRule, unknown)).toMatch(/not a code of the Errors table/);
  });

  it('want a JSON content type, the request id header, no leaks and rate-limit headers', () => {
    expect(judge(jsonContentTypeRule, { ...good, headers: { ...good.headers, 'content-type': 'text/plain' } })).toMatch(
      /served as text\/plain/,
    );
    expect(judge(requestIdHeaderRule, { ...good, headers: { ...good.headers, 'x-request-id': 'other' } })).toMatch(
      /other/,
    );
    expect(judge(noLeaksRule, { ...good, headers: { ...good.headers, 'x-debug': 'Bearer tok_secret_123' } })).toMatch(
      /the token/,
    );
    expect(judge(noLeaksRule, { ...notFound, text: 'at handler (/srv/app/auth.ts:4:2)' })).toMatch(/stack frame/);
    // A credential written out in the public self-description; a description of one, or a placeholder, is none.
    const described = (authentication: unknown) =>
      ex({
        url: `${BASE}/api/public/v1`,
        requestHeaders: {},
        body: { ok: true, data: { service: 's', authentication }, meta },
      });
    expect(judge(noLeaksRule, described({ exampleClient: { clientSecret: 'sk_live_4f9a2b7c1d8e' } }))).toMatch(
      /data\.authentication\.exampleClient\.clientSecret/,
    );
    for (const shown of ['stored once, never shown again', '<your-client-secret>', 'YOUR_CLIENT_SECRET'])
      expect(judge(noLeaksRule, described({ clientSecret: shown }))).toBeUndefined();
    const { 'x-ratelimit-limit': _l, ...without } = good.headers;
    expect(judge(rateLimitHeadersRule, { ...good, headers: without })).toMatch(/X-RateLimit-Limit|x-ratelimit-limit/);
    // Not authenticated (no token sent) or refused: not judged.
    expect(judge(rateLimitHeadersRule, { ...good, headers: without, requestHeaders: {} })).toBeUndefined();
  });

  it('scope: only interface endpoints are judged; the stream and the OpenAPI document carry no envelope', () => {
    expect(routeOf(ex({ url: `${BASE}/_sandbox/faults` }), [BASE])).toBeUndefined();
    expect(routeOf(ex({ url: `${BASE}/api/public/v1/no-such-path` }), [BASE])).toBeUndefined();
    expect(routeOf(ex({ url: `${BASE}/api/public/v1/providers?category=pos` }), [BASE])?.id).toBe('listProviders');
    const doc = ex({ url: `${BASE}/api/public/v1/openapi.json`, body: { openapi: '3.1.0' } });
    expect(judge(envelopeRule, doc)).toBeUndefined();
    const stream = ex({ url: `${BASE}/api/public/v1/stream`, text: 'id: 1\ndata: {}\n\n', json: undefined });
    expect(judge(envelopeRule, stream)).toBeUndefined();
  });
});

describe('successEnvelopeProblem (answers beyond the table: the delivery log, a redelivery, GET /info)', () => {
  const log = (version: string, asked?: string) =>
    ex({
      url: `${BASE}/api/public/v1/webhooks/wh_1/deliveries`,
      requestHeaders: asked ? { 'Service-Version': asked } : {},
      body: { ok: true, data: { deliveries: [] }, meta: { ...meta, version } },
    });
  it('judges meta.version as the table routes are: the current version where the call asked for it', () => {
    expect(successEnvelopeProblem(log('2026-06-12', '2026-07-01'))).toBe(
      'asked for 2026-07-01 with Service-Version, answered as meta.version 2026-06-12',
    );
    expect(successEnvelopeProblem(log('2026-07-01', '2026-07-01'))).toBeUndefined();
    expect(successEnvelopeProblem(log('2026-06-12', '2026-06-12'))).toBeUndefined();
    expect(successEnvelopeProblem(log('v1'))).toMatch(/is not a published version/);
  });
});
