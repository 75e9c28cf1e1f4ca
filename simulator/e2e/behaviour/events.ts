import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { PUBLIC_FEED, tenantFeed } from '../../events/feed.ts';
import { client, type Target } from '../harness.ts';
import { expectFailure, expectSuccess } from './expect-envelope.ts';
import { readStream } from './sse-reader.ts';

const ids = (events: { id?: string }[]) => events.map((e) => Number(e.id));

export function streamBehaviour(get: () => Target) {
  describe('status stream (SSE)', () => {
    const auth = (t: Target) => {
      const api = client(t);
      return { authorization: `Bearer ${api.token}`, 'x-service-tenant': api.tenant };
    };

    it('without credentials: the public feed, text/event-stream, a retry hint, live status messages', async () => {
      const t = get();
      const read = await readStream(t, {
        count: 2,
        during: async () => {
          t.sandbox.control.setStatus({ status: 'degraded', message: 'Card payments are slow.' });
          t.sandbox.control.setStatus({ status: 'operational' });
        },
      });
      expect(read.status).toBe(200);
      expect(read.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(read.headers.get('x-request-id')).toMatch(/^req_/);
      expect(read.retry).toBeGreaterThan(0);
      expect(read.events.map((e) => e.event)).toEqual(['service.status', 'service.status']);
      expect(JSON.parse(read.events[0]!.data)).toMatchObject({
        status: 'degraded',
        message: 'Card payments are slow.',
      });
      const [a, b] = ids(read.events);
      expect(b).toBe(a! + 1);
    });

    it("with a token: the tenant's own feed; the public feed and other tenants never see tenant data", async () => {
      const t = get();
      const api = client(t);
      const alpine = t.sandbox.issueToken('alpine-backend');
      const create = () =>
        api.call('POST', '/api/public/v1/connections', {
          body: {
            connectorId: 'tillcraft-pos-cloud',
            environment: 'sandbox',
            scopeLabel: 'Stream venue',
            capabilities: ['orders.read'],
          },
          headers: { 'idempotency-key': `stream-${Date.now()}-${Math.random().toString(36).slice(2)}` },
        });
      // The other two streams stop at a marker published after the creation: no waiting on a clock.
      const markers = async () => {
        await sleep(50);
        expectSuccess(await create());
        t.sandbox.control.setStatus({ status: 'operational', message: 'marker' });
        t.sandbox.state.feeds.publish(tenantFeed('alpine-bistro'), 'order.created', { marker: true });
      };
      const [publicFeed, theirs, mine] = await Promise.all([
        readStream(t, { count: 1 }),
        readStream(t, {
          headers: { authorization: `Bearer ${alpine.token}`, 'x-service-tenant': 'alpine-bistro' },
          count: 1,
        }),
        readStream(t, { headers: auth(t), count: 1, during: markers }),
      ]);
      expect(mine.events[0]!.event).toBe('connection.created');
      expect(JSON.parse(mine.events[0]!.data).connection.scopeLabel).toBe('Stream venue');
      expect(JSON.parse(publicFeed.events[0]!.data).message).toBe('marker');
      expect(JSON.parse(theirs.events[0]!.data).marker).toBe(true);
      expect(publicFeed.raw).not.toContain('Stream venue');
      expect(theirs.raw).not.toContain('Stream venue');
    });

    it('resumes after Last-Event-ID or ?cursor without gap or duplicate; the header wins', async () => {
      const t = get();
      const start = await t.sandbox.state.feeds.lastId(PUBLIC_FEED);
      for (let i = 0; i < 20; i++) t.sandbox.control.setStatus({ status: 'operational', message: `m${i}` });
      const byHeader = await readStream(t, { headers: { 'last-event-id': String(start + 5) }, count: 15 });
      expect(ids(byHeader.events)).toEqual(Array.from({ length: 15 }, (_, i) => start + 6 + i));
      const byQuery = await readStream(t, { query: `?cursor=${start + 18}`, count: 2 });
      expect(ids(byQuery.events)).toEqual([start + 19, start + 20]);
      const both = await readStream(t, {
        query: `?cursor=${start + 1}`,
        headers: { 'last-event-id': String(start + 19) },
        count: 1,
      });
      expect(ids(both.events)).toEqual([start + 20]);
    });

    it('no gap and no duplicate over thousands of messages with repeated disconnects', async () => {
      const t = get();
      const feed = tenantFeed('lakeside-cafes');
      const token = (
        await t.sandbox.state.tokens.issue({
          clientId: 'network-integrator',
          tenants: ['lakeside-cafes'],
          scopes: ['stream:read'],
          environment: 'sandbox',
        })
      ).token;
      const headers = { authorization: `Bearer ${token}`, 'x-service-tenant': 'lakeside-cafes' };
      const first = await t.sandbox.state.feeds.lastId(feed);
      const total = 3000;
      let published = 0;
      const publisher = setInterval(() => {
        for (let i = 0; i < 60 && published < total; i++, published++)
          t.sandbox.state.feeds.publish(feed, 'order.created', { n: published });
        if (published >= total) clearInterval(publisher);
      }, 2);
      const seen: number[] = [];
      let cursor = first;
      for (let round = 0; round < 200 && cursor < first + total; round++) {
        const read = await readStream(t, {
          headers: { ...headers, 'last-event-id': String(cursor) },
          count: 97,
          timeoutMs: 1000,
        });
        seen.push(...ids(read.events));
        if (read.events.length) cursor = Number(read.events.at(-1)!.id);
      }
      clearInterval(publisher);
      expect(seen.length).toBe(total);
      expect(seen).toEqual(Array.from({ length: total }, (_, i) => first + 1 + i));
    }, 30_000);

    it('a cursor older than the retention window gets an explicit stream.reset, never a silent gap', async () => {
      const t = get();
      const retention = t.sandbox.state.feeds.retention;
      for (let i = 0; i <= retention; i++)
        t.sandbox.state.feeds.publish(PUBLIC_FEED, 'service.status', { status: 'operational', n: i });
      const read = await readStream(t, { query: '?cursor=0', count: 2 });
      expect(read.events[0]!.event).toBe('stream.reset');
      expect(JSON.parse(read.events[0]!.data)).toMatchObject({
        reason: 'cursor_expired',
        oldestRetained: await t.sandbox.state.feeds.oldestRetained(PUBLIC_FEED),
      });
      expect(Number(read.events[1]!.id)).toBe(await t.sandbox.state.feeds.oldestRetained(PUBLIC_FEED));
    });

    it('a malformed cursor -> 400 invalid_request as JSON, not an event', async () => {
      const t = get();
      for (const opts of [
        { query: '?cursor=abc' },
        { query: '?cursor=-1' },
        { headers: { 'last-event-id': 'x1' } },
        { query: '?cursor=1.5' },
      ]) {
        const read = await readStream(t, { ...opts, count: 1 });
        expect(read.status, JSON.stringify(opts)).toBe(400);
        expect(read.json).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
      }
    });

    it('an invalid token is refused (401), not silently served the public feed; a missing scope -> 403', async () => {
      const t = get();
      const bad = await readStream(t, {
        headers: { authorization: 'Bearer ncs_at_nope', 'x-service-tenant': 'harbour-kitchens' },
        count: 1,
      });
      expect(bad.status).toBe(401);
      const noScope = (
        await t.sandbox.state.tokens.issue({
          clientId: 'harbour-backend',
          tenants: ['harbour-kitchens'],
          scopes: ['catalog:read'],
          environment: 'sandbox',
        })
      ).token;
      const read = await readStream(t, {
        headers: { authorization: `Bearer ${noScope}`, 'x-service-tenant': 'harbour-kitchens' },
        count: 1,
      });
      expect(read.status).toBe(403);
      expectFailure({ status: read.status, headers: read.headers, json: read.json, text: read.raw }, 'forbidden');
    });
  });
}
