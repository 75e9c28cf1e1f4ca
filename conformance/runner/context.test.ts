import { describe, expect, it } from 'vitest';
import type { Exchange, KitClient, SendRequest } from '../client/http-client.ts';
import { createRedactor } from '../client/redact.ts';
import { tokenKeeper } from '../client/token-keeper.ts';
import { defineCheck } from './check.ts';
import { createCheckContext, type RunState } from './context.ts';
import { DEFAULT_DEPLOYMENT_PROFILE } from './deployment-profile.ts';
import { createExchangeLog } from './exchange-log.ts';

function runState(over: Partial<RunState> = {}) {
  const sent: SendRequest[] = [];
  const client: KitClient = {
    async send(req) {
      sent.push(req);
      return {
        method: req.method,
        url: req.url,
        requestHeaders: req.headers ?? {},
        status: 401,
        headers: {},
        text: '{"ok":false,"error":{"code":"unauthorized"}}',
        json: { ok: false, error: { code: 'unauthorized' } },
        durationMs: 1,
        attempts: 1,
      } satisfies Exchange;
    },
    async openStream(req) {
      sent.push(req);
      const ex: Exchange = {
        method: req.method,
        url: req.url,
        requestHeaders: req.headers ?? {},
        status: 200,
        headers: { 'content-type': 'text/event-stream' },
        text: '',
        json: undefined,
        durationMs: 1,
        attempts: 1,
      };
      return {
        ex,
        isStream: true,
        events: [],
        readUntil: async () => [],
        close: async () => void closed.push(req.url),
      };
    },
  };
  const closed: string[] = [];
  const redactor = createRedactor();
  redactor.add('secret-token', 'NCS_TOKEN');
  const run: RunState = {
    runId: 'r1',
    client,
    redactor,
    token: 'secret-token',
    profile: 'full',
    deployment: DEFAULT_DEPLOYMENT_PROFILE,
    target: {
      baseUrl: 'http://main',
      altBaseUrl: 'http://alt',
      tenant: 'harbour-kitchens',
      hasToken: true,
      hasAdminToken: false,
    },
    memo: new Map(),
    labels: { next: 0 },
    cleanups: [],
    exchanges: createExchangeLog(),
    ...over,
  };
  return { run, sent, closed };
}
const def = defineCheck({
  name: 'demo.ctx',
  title: 't',
  severity: 'MUST',
  section: 'Errors',
  tags: [],
  mutating: false,
  run: async () => undefined,
});

describe('check context', () => {
  it('records every call and stream in the run, named after the check, for the response rules', async () => {
    const { run } = runState();
    const { ctx } = createCheckContext(def, run);
    await ctx.call('GET', '/a');
    await ctx.stream('/s');
    expect(ctx.exchanges().map((e) => [e.check, e.ex.url, e.ex.status])).toEqual([
      ['demo.ctx', 'http://main/a', 401],
      ['demo.ctx', 'http://main/s', 200],
    ]);
  });

  it('sends credentials by default, none on request, and lets the check rename or replace headers', async () => {
    const { run, sent } = runState();
    const { ctx } = createCheckContext(def, run);
    await ctx.call('GET', '/a', { query: { x: '1 2' } });
    await ctx.call('GET', '/b', { credentials: 'none' });
    await ctx.call('POST', '/c', {
      json: { a: 1 },
      headers: { Authorization: 'Basic abc' },
      tenant: false,
      base: 'alt',
    });
    await ctx.call('GET', '/d', { headerNames: { authorization: 'AUTHORIZATION', tenant: 'X-Service-Tenant' } });
    expect(sent.map((s) => [s.method, s.url, s.headers, s.body])).toEqual([
      [
        'GET',
        'http://main/a?x=1+2',
        { authorization: 'Bearer secret-token', 'x-service-tenant': 'harbour-kitchens' },
        undefined,
      ],
      ['GET', 'http://main/b', {}, undefined],
      ['POST', 'http://alt/c', { 'content-type': 'application/json', Authorization: 'Basic abc' }, '{"a":1}'],
      [
        'GET',
        'http://main/d',
        { AUTHORIZATION: 'Bearer secret-token', 'X-Service-Tenant': 'harbour-kitchens' },
        undefined,
      ],
    ]);
  });

  it('refuses calls a check did not declare it needs', async () => {
    const { run } = runState({
      token: undefined,
      target: { baseUrl: 'http://main', hasToken: false, hasAdminToken: false },
    });
    const { ctx } = createCheckContext(def, run);
    await expect(ctx.call('GET', '/a')).rejects.toThrow(/requires: \['token'\]/);
    await expect(ctx.call('GET', '/a', { credentials: 'none', base: 'alt' })).rejects.toThrow(
      /requires: \['alt-base-url'\]/,
    );
    await expect(ctx.call('GET', '/_sandbox', { credentials: 'admin' })).rejects.toThrow(
      /requires: \['control-plane'\]/,
    );
  });

  it('labels, shares values per run and gathers soft failures', async () => {
    const { run } = runState();
    const { ctx, failures } = createCheckContext(def, run);
    expect([ctx.label('key'), ctx.label('key')]).toEqual(['ncs-conformance-r1-key-1', 'ncs-conformance-r1-key-2']);
    let made = 0;
    const make = async () => ++made;
    expect(await Promise.all([ctx.shared('x', make), createCheckContext(def, run).ctx.shared('x', make)])).toEqual([
      1, 1,
    ]);
    const ex = await ctx.call('GET', '/a');
    expect(ctx.expect.errorCode(ex, 'unauthorized', 'ok')).toBe(true);
    expect(ctx.expect.errorCode(ex, 'forbidden', 'GET /a answers 403 forbidden')).toBe(false);
    expect(ctx.expect.status(ex, [200, 404], 'GET /a answers 200 or 404')).toBe(false);
    expect(failures.map((f) => f.expected)).toEqual(['GET /a answers 403 forbidden', 'GET /a answers 200 or 404']);
    expect(() => ctx.require(false, { expected: 'stop' })).toThrow('stop');
    expect(() => ctx.skip('why')).toThrow('why');
    expect(ctx.secrets()).toEqual(['secret-token']);
  });

  it('sends the admin token to the control plane, opens streams like calls and closes them, defers cleanups to the run end', async () => {
    const { run, sent, closed } = runState({ adminToken: 'admin-secret' });
    const { ctx, closeStreams } = createCheckContext(def, run);
    await ctx.call('POST', '/_sandbox/faults', { credentials: 'admin', json: {} });
    const session = await ctx.stream('/api/public/v1/stream', {
      query: { cursor: '3' },
      headers: { 'Last-Event-ID': '2' },
    });
    expect(session.isStream).toBe(true);
    expect(sent.map((s) => [s.method, s.url, s.headers])).toEqual([
      [
        'POST',
        'http://main/_sandbox/faults',
        { authorization: 'Bearer admin-secret', 'content-type': 'application/json' },
      ],
      [
        'GET',
        'http://main/api/public/v1/stream?cursor=3',
        { authorization: 'Bearer secret-token', 'x-service-tenant': 'harbour-kitchens', 'Last-Event-ID': '2' },
      ],
    ]);
    await closeStreams();
    expect(closed).toEqual(['http://main/api/public/v1/stream?cursor=3']);
    const cleanup = async () => undefined;
    ctx.atRunEnd(cleanup);
    expect(run.cleanups).toEqual([cleanup]);
  });

  it('sends a call again with a renewed token after each 401 a token old enough to have run out gets, at most three times', async () => {
    // 2 s tokens on a clock that moves 1.5 s per call: every token has run out by the time its call arrives.
    let clock = 0;
    let issued = 0;
    const keeper = tokenKeeper(
      { accessToken: 'secret-token', expiresIn: 2, requestedAt: 0 },
      async () => ({ accessToken: `token-${++issued}`, expiresIn: 2 }),
      () => {},
      () => clock,
    );
    const { run, sent } = runState({ tokens: keeper });
    const client = run.client;
    run.client = {
      ...client,
      send: (req) => {
        clock += 1500;
        return client.send(req);
      },
    };
    const { ctx } = createCheckContext(def, run);
    await ctx.call('GET', '/a');
    expect(sent.map((r) => r.headers?.authorization)).toEqual([
      'Bearer secret-token',
      'Bearer token-1',
      'Bearer token-2',
      'Bearer token-3',
    ]);
    // A 401 the check provoked with a token of its own is its answer: nothing renewed, nothing sent again.
    sent.length = 0;
    await ctx.call('GET', '/b', { headers: { authorization: 'Bearer wrong' } });
    expect(sent).toHaveLength(1);
  });

  it('opens a stream refused 401 again with a renewed token, as a call is sent again', async () => {
    let clock = 0;
    let issued = 0;
    const keeper = tokenKeeper(
      { accessToken: 'secret-token', expiresIn: 2, requestedAt: 0 },
      async () => ({ accessToken: `token-${++issued}`, expiresIn: 2 }),
      () => {},
      () => clock,
    );
    const { run } = runState({ tokens: keeper });
    const opened: string[] = [];
    const client = run.client;
    run.client = {
      ...client,
      async openStream(req) {
        clock += 1500;
        opened.push(String(req.headers?.authorization));
        const session = await client.openStream(req);
        const refused = opened.length === 1;
        return refused ? { ...session, isStream: false, ex: { ...session.ex, status: 401 } } : session;
      },
    };
    const { ctx } = createCheckContext(def, run);
    const s = await ctx.stream('/s');
    expect(s.isStream).toBe(true);
    expect(opened).toEqual(['Bearer secret-token', 'Bearer token-1']);
  });
});
