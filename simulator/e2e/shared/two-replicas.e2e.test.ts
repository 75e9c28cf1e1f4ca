// Two replicas on one Redis, requests alternating between them: everything a client can observe is one
// sandbox (README "Shared sandbox"). One is an `ncs serve` process, the other the library's serve() in
// this process: the state they share crosses processes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_REDIS_REASON, REDIS_SERVER, startRedis, type TestRedis } from '../redis-server.ts';
import type { Target } from '../harness.ts';
import { authorize, MOBILE_REDIRECT, oauthPost, pkcePair } from '../behaviour/oauth-helpers.ts';
import {
  call,
  clientToken,
  control,
  openStream,
  type PlainReplica,
  startLocalReplica,
  startReplica,
} from './replicas.ts';
import { rateLimitOption } from '../../app/serve-options.ts';

const HARBOUR = { id: 'harbour-backend', secret: 'hk-sandbox-secret-5f2c9a7e1b3d4c60', tenant: 'harbour-kitchens' };
const ALPINE = { id: 'alpine-backend', secret: 'ab-sandbox-secret-8e41d07c2a9f5b13', tenant: 'alpine-bistro' };
const LIMIT = 1500;
const NEW_CONNECTION = {
  connectorId: 'tillcraft-pos-cloud',
  environment: 'sandbox',
  scopeLabel: 'Harbour Pier',
  capabilities: ['menu.read'],
};

describe.skipIf(!REDIS_SERVER)(
  `two replicas on one Redis${REDIS_SERVER ? '' : ` (skipped: ${NO_REDIS_REASON})`}`,
  () => {
    let redis: TestRedis;
    let a: PlainReplica;
    let b: PlainReplica;
    let token: string;
    const both = () => [a.info.baseUrl, b.info.baseUrl] as const;

    beforeAll(async () => {
      redis = await startRedis();
      [a, b] = await Promise.all([
        startReplica(redis.url, ['--rate-limit', `${LIMIT}/60`]),
        startLocalReplica(redis.url, { rateLimit: rateLimitOption({ rateLimit: `${LIMIT}/60` }) }),
      ]);
      token = await clientToken(a.info.baseUrl, HARBOUR.id, HARBOUR.secret);
    }, 60_000);
    afterAll(async () => {
      await Promise.all([a?.stop(), b?.stop()]);
      await redis?.close();
    });

    it('accepts a token issued on one replica on the other', async () => {
      const fromB = await clientToken(b.info.baseUrl, HARBOUR.id, HARBOUR.secret);
      const r = await call(a.info.baseUrl, fromB, HARBOUR.tenant, '/providers');
      expect(r.status).toBe(200);
    });

    it('a 1,000-way race on one key, split over both replicas, creates one connection', async () => {
      const before = (await call(a.info.baseUrl, token, HARBOUR.tenant, '/connections')).json.data.count;
      const key = `race-${Date.now()}`;
      const answers = await Promise.all(
        Array.from({ length: 1000 }, (_, i) =>
          call(both()[i % 2]!, token, HARBOUR.tenant, '/connections', { body: NEW_CONNECTION, key }),
        ),
      );
      expect(answers.map((r) => r.status).filter((s) => s !== 200)).toEqual([]);
      const ids = new Set(answers.map((r) => r.json.data.id));
      expect(ids.size).toBe(1);
      expect(answers.filter((r) => !r.json.meta.replayed)).toHaveLength(1);
      for (const base of both()) {
        const list = await call(base, token, HARBOUR.tenant, '/connections');
        expect(list.json.data.count).toBe(before + 1);
      }
      // The same key with other content is a conflict on either replica.
      const other = await call(b.info.baseUrl, token, HARBOUR.tenant, '/connections', {
        body: { ...NEW_CONNECTION, scopeLabel: 'Other' },
        key,
      });
      expect(other.json.error?.code).toBe('idempotency_conflict');
    }, 60_000);

    it('delivers a message written on one replica to a stream on the other, and resumes on either without gap or duplicate', async () => {
      const onA = await openStream(a.info.baseUrl, token, HARBOUR.tenant);
      const created: string[] = [];
      for (let i = 0; i < 4; i++) {
        const r = await call(b.info.baseUrl, token, HARBOUR.tenant, '/connections', {
          body: { ...NEW_CONNECTION, scopeLabel: `Venue ${i}` },
          key: `stream-${Date.now()}-${i}`,
        });
        created.push(r.json.data.id);
      }
      // The four creations, whatever else arrives between them: on a loaded machine the first connection's
      // activation (2 s after its creation) can come before the fourth creation's message.
      await onA.waitFor((events) => events.filter((e) => e.event === 'connection.created').length >= 4);
      await onA.close();
      const live = onA.events.filter((e) => e.event === 'connection.created');
      expect(live.map((e) => JSON.parse(e.data).connection.id)).toEqual(created);
      const ids = onA.events.map((e) => Number(e.id));
      expect(ids).toEqual(ids.map((_, i) => ids[0]! + i)); // consecutive
      // Resume after the first message on B, then by cursor on A: the same messages, same ids and data.
      const first = onA.events[0]!;
      for (const [base, how] of [
        [b.info.baseUrl, { headers: { 'last-event-id': first.id } }],
        [a.info.baseUrl, { query: `?cursor=${first.id}` }],
      ] as const) {
        const resumed = await openStream(
          base,
          token,
          HARBOUR.tenant,
          'query' in how ? how.query : '',
          'headers' in how ? how.headers : {},
        );
        await resumed.waitFor(onA.events.length - 1);
        await resumed.close();
        expect(resumed.events.slice(0, onA.events.length - 1)).toEqual(onA.events.slice(1));
      }
    }, 30_000);

    it('counts the rate limit across replicas: exactly the limit allowed in total', async () => {
      const alpine = await clientToken(b.info.baseUrl, ALPINE.id, ALPINE.secret);
      const answers = await Promise.all(
        Array.from({ length: LIMIT + 100 }, (_, i) => call(both()[i % 2]!, alpine, ALPINE.tenant, '/connections')),
      );
      const statuses = answers.map((r) => r.status);
      const tally = Object.fromEntries([...new Set(statuses)].map((s) => [s, statuses.filter((x) => x === s).length]));
      expect(tally).toEqual({ 200: LIMIT, 429: 100 });
      const refused = answers.find((r) => r.status === 429)!;
      expect(refused.json.error.code).toBe('rate_limited');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }, 60_000);

    it('a revocation on one replica ends a stream held on the other within a second', async () => {
      const short = await clientToken(a.info.baseUrl, HARBOUR.id, HARBOUR.secret);
      const held = await openStream(b.info.baseUrl, short, HARBOUR.tenant);
      const revoked = await fetch(`${a.info.baseUrl}/oauth/revoke`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${HARBOUR.id}:${HARBOUR.secret}`).toString('base64')}`,
        },
        body: new URLSearchParams({ token: short }).toString(),
      });
      expect(revoked.status).toBe(200);
      const started = Date.now();
      const ended = await Promise.race([
        held.ended.then(() => true),
        new Promise((r) => setTimeout(() => r(false), 1000)),
      ]);
      expect(ended).toBe(true);
      expect(Date.now() - started).toBeLessThan(1000);
      expect((await call(b.info.baseUrl, short, HARBOUR.tenant, '/providers')).status).toBe(401);
    }, 15_000);

    it('authorization code on one replica, exchange and refresh rotation on the other, reuse revoking the grant on both', async () => {
      const on = (r: PlainReplica) =>
        ({ baseUrl: r.info.baseUrl, fetch: globalThis.fetch.bind(globalThis) }) as unknown as Target;
      const { verifier, challenge } = pkcePair();
      const auth = await authorize(on(a), {
        response_type: 'code',
        client_id: 'harbour-mobile',
        redirect_uri: MOBILE_REDIRECT,
        scope: 'catalog:read connections:read',
        state: 'st-shared',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      });
      expect(auth.status).toBe(302);
      const exchange = {
        grant_type: 'authorization_code',
        client_id: 'harbour-mobile',
        code: auth.params.get('code') ?? '',
        redirect_uri: MOBILE_REDIRECT,
        code_verifier: verifier,
      };
      const first = await oauthPost(on(b), exchange);
      expect(first.status, first.text).toBe(200);
      const refresh = {
        grant_type: 'refresh_token',
        client_id: 'harbour-mobile',
        refresh_token: first.json.refresh_token,
      };
      const rotated = await oauthPost(on(a), refresh);
      expect(rotated.status, rotated.text).toBe(200);
      expect((await call(b.info.baseUrl, rotated.json.access_token, HARBOUR.tenant, '/providers')).status).toBe(200);
      // The spent refresh token again, on the other replica: refused, and the whole grant revoked everywhere.
      expect((await oauthPost(on(b), refresh)).json.error).toBe('invalid_grant');
      const next = { ...refresh, refresh_token: rotated.json.refresh_token };
      expect((await oauthPost(on(a), next)).json.error).toBe('invalid_grant');
      expect((await call(a.info.baseUrl, rotated.json.access_token, HARBOUR.tenant, '/providers')).status).toBe(401);
      // The code was redeemed on B: presenting it again on A is refused there too.
      expect((await oauthPost(on(a), exchange)).json.error).toBe('invalid_grant');
    }, 30_000);

    it('applies control-plane changes made on one replica on the other (clock, faults)', async () => {
      const before = (await control(b.info.baseUrl, '/clock')).json.data.offsetMs;
      await control(a.info.baseUrl, '/clock/advance', { seconds: 3600 });
      expect((await control(b.info.baseUrl, '/clock')).json.data.offsetMs).toBe(before + 3_600_000);
      await control(b.info.baseUrl, '/faults', { kind: 'internal', route: 'listProviders', count: 3 });
      // Faults are the answers to calls the service took (after sign-in): a token of the clock an hour on.
      const fresh = await clientToken(b.info.baseUrl, HARBOUR.id, HARBOUR.secret);
      const statuses = [];
      for (let i = 0; i < 6; i++)
        statuses.push((await call(both()[i % 2]!, fresh, HARBOUR.tenant, '/providers')).status);
      expect(statuses.filter((s) => s === 500)).toHaveLength(3);
    }, 15_000);
  },
);
