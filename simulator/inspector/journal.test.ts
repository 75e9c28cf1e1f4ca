import { describe, expect, it } from 'vitest';
import type { PlainRequest, PlainResponse } from '../core/types.ts';
import { createJournal } from './journal.ts';
import { journalCurl } from './journal-curl.ts';
import { redactBody, redactHeaders } from './redact.ts';

const enc = new TextEncoder();
const req = (path: string, extra: Partial<PlainRequest> = {}): PlainRequest => ({
  method: 'GET',
  path,
  query: {},
  headers: { host: '127.0.0.1:4010' },
  ...extra,
});
const res = (status: number, body = '{}'): PlainResponse => ({
  status,
  headers: { 'content-type': 'application/json' },
  body,
});
const info = (n: number, tenant?: string) => ({
  requestId: `req_${n}`,
  startedAt: 1_700_000_000_000 + n,
  durationMs: 1.234,
  ...(tenant ? { tenant, clientId: 'harbour-backend' } : {}),
});

describe('request journal', () => {
  it('keeps only the newest N calls, newest first, and forgets evicted ones', () => {
    const j = createJournal({ size: 3 });
    for (let n = 1; n <= 5; n++) j.record(req(`/p${n}`), res(200), info(n));
    expect(j.list().map((s) => s.path)).toEqual(['/p5', '/p4', '/p3']);
    expect(j.get(2)).toBeUndefined();
    expect(j.get(4)?.path).toBe('/p4');
  });

  it('keeps a burst whole, then its rate per second, and counts what it left out', () => {
    let t = 0;
    const j = createJournal({ size: 5, burst: 5, ratePerSecond: 2, now: () => t });
    for (let n = 1; n <= 8; n++) j.record(req(`/p${n}`), res(200), info(n));
    expect(j.list().map((s) => s.path)).toEqual(['/p5', '/p4', '/p3', '/p2', '/p1']);
    expect(j.skipped).toBe(3);
    t = 1000; // one second: room for two more
    for (let n = 9; n <= 12; n++) j.record(req(`/p${n}`), res(200), info(n));
    expect(j.list().map((s) => s.path)).toEqual(['/p10', '/p9', '/p5', '/p4', '/p3']);
    expect(j.skipped).toBe(5);
    expect(j.get(j.list()[0]!.seq)?.path).toBe('/p10');
    j.clear();
    expect(j.skipped).toBe(0);
  });

  it('filters by tenant, exact status or class, and path', () => {
    const j = createJournal();
    j.record(req('/api/public/v1/providers'), res(200), info(1, 'harbour-kitchens'));
    j.record(req('/api/public/v1/connections'), res(404), info(2, 'alpine-bistro'));
    j.record(req('/api/public/v1/connections'), res(428), info(3, 'harbour-kitchens'));
    expect(j.list({ tenant: 'harbour-kitchens' }).map((s) => s.seq)).toEqual([3, 1]);
    expect(j.list({ status: '4xx' }).map((s) => s.seq)).toEqual([3, 2]);
    expect(j.list({ status: '404' }).map((s) => s.seq)).toEqual([2]);
    expect(j.list({ path: 'connections', tenant: 'harbour-kitchens' }).map((s) => s.seq)).toEqual([3]);
  });

  it('leaves out the inspector own traffic and tells live listeners about the rest', () => {
    const j = createJournal();
    const seen: string[] = [];
    const off = j.subscribe((s) => seen.push(s.path));
    j.record(req('/_sandbox/inspector/api/journal'), res(200), info(1));
    j.record(req('/_sandbox'), res(200), info(2));
    off();
    j.record(req('/api/public/v1'), res(200), info(3));
    expect(seen).toEqual(['/_sandbox']);
    expect(j.list().map((s) => s.path)).toEqual(['/api/public/v1', '/_sandbox']);
  });

  it('redacts credentials in headers, JSON and form bodies and the query when an entry is opened', () => {
    const j = createJournal();
    j.record(
      req('/oauth/token', {
        method: 'POST',
        query: { code: 'abc', state: 'x' },
        headers: {
          authorization: 'Basic Y2xpZW50OnNlY3JldA==',
          'content-type': 'application/x-www-form-urlencoded',
          cookie: 'a=b',
        },
        body: enc.encode('grant_type=refresh_token&refresh_token=ncs_rt_secret&client_id=app'),
      }),
      res(200, '{"access_token":"ncs_at_live","token_type":"Bearer","nested":{"signingSecret":"whsec_1"}}'),
      info(1),
    );
    const d = j.get(1)!;
    const text = JSON.stringify(d);
    for (const secret of ['Y2xpZW50OnNlY3JldA', 'ncs_rt_secret', 'ncs_at_live', 'whsec_1', 'abc', 'a=b'])
      expect(text).not.toContain(secret);
    expect(d.requestHeaders.authorization).toBe('Basic [redacted]');
    expect(d.requestBody).toBe('grant_type=refresh_token&refresh_token=%5Bredacted%5D&client_id=app');
    expect(JSON.parse(d.responseBody)).toEqual({
      access_token: '[redacted]',
      token_type: 'Bearer',
      nested: { signingSecret: '[redacted]' },
    });
    expect(d.query).toBe('code=%5Bredacted%5D&state=x');
  });

  it('copies a call as curl with the token read from a shell variable', () => {
    const j = createJournal();
    j.record(
      req('/api/public/v1/connections', {
        method: 'POST',
        headers: {
          host: 'h',
          authorization: 'Bearer ncs_at_x',
          'idempotency-key': "it's-1",
          'content-type': 'application/json',
        },
        body: enc.encode('{"connectorId":"pos"}'),
      }),
      res(201),
      info(1, 'harbour-kitchens'),
    );
    const curl = journalCurl(j.get(1)!, 'http://127.0.0.1:4010');
    expect(curl).toContain(`-X POST 'http://127.0.0.1:4010/api/public/v1/connections'`);
    expect(curl).toContain(`-H 'authorization: Bearer '"$NCS_TOKEN"`);
    expect(curl).toContain(`-H 'idempotency-key: it'"'"'s-1'`);
    expect(curl).not.toContain('ncs_at_x');
    expect(curl).not.toContain("'host:");
  });

  it('masks credentials left in plain text and in custom headers', () => {
    expect(redactBody('token ncs_at_abcdef here', 'text/plain')).toBe('token ncs_at_[redacted] here');
    expect(redactHeaders({ 'x-api-token': 't', accept: '*/*' })).toEqual({
      'x-api-token': '[redacted]',
      accept: '*/*',
    });
  });
});
