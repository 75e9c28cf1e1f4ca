// A code or refresh token presented on two replicas at the same moment is accepted once: the
// single-use decision is made in Redis (app/shared-spend.ts), not by each replica's own state.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorize, MOBILE_REDIRECT, oauthPost, pkcePair } from '../behaviour/oauth-helpers.ts';
import type { Target } from '../harness.ts';
import { NO_REDIS_REASON, REDIS_SERVER, startRedis, type TestRedis } from '../redis-server.ts';
import { type PlainReplica, startLocalReplica, startReplica } from './replicas.ts';

const AT_ONCE = 12;

describe.skipIf(!REDIS_SERVER)(
  `single use across replicas${REDIS_SERVER ? '' : ` (skipped: ${NO_REDIS_REASON})`}`,
  () => {
    let redis: TestRedis;
    let a: PlainReplica;
    let b: PlainReplica;
    const on = (r: PlainReplica) =>
      ({ baseUrl: r.info.baseUrl, fetch: globalThis.fetch.bind(globalThis) }) as unknown as Target;
    beforeAll(async () => {
      redis = await startRedis();
      // A in a process of its own, B in this one: the two decide through Redis, across processes.
      [a, b] = await Promise.all([startReplica(redis.url), startLocalReplica(redis.url)]);
    }, 60_000);
    afterAll(async () => {
      await Promise.all([a?.stop(), b?.stop()]);
      await redis?.close();
    });

    /** A fresh code of the mobile client (PKCE), signed in on replica A. */
    async function freshCode() {
      const { verifier, challenge } = pkcePair();
      const auth = await authorize(on(a), {
        response_type: 'code',
        client_id: 'harbour-mobile',
        redirect_uri: MOBILE_REDIRECT,
        scope: 'catalog:read connections:read',
        state: 'st-single',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      });
      expect(auth.status).toBe(302);
      return {
        grant_type: 'authorization_code',
        client_id: 'harbour-mobile',
        code: auth.params.get('code') ?? '',
        redirect_uri: MOBILE_REDIRECT,
        code_verifier: verifier,
      };
    }
    const race = (params: Record<string, string>) =>
      Promise.all(Array.from({ length: AT_ONCE }, (_, i) => oauthPost(on(i % 2 ? b : a), params)));

    it('exchanges an authorization code presented on both replicas at once exactly once', async () => {
      for (let round = 0; round < 3; round++) {
        const answers = await race(await freshCode());
        const won = answers.filter((r) => r.status === 200);
        expect(won).toHaveLength(1);
        expect(answers.filter((r) => r.status !== 200).map((r) => r.json.error)).toEqual(
          Array(AT_ONCE - 1).fill('invalid_grant'),
        );
      }
    }, 60_000);

    it('rotates a refresh token presented on both replicas at once exactly once', async () => {
      for (let round = 0; round < 3; round++) {
        const first = await oauthPost(on(b), await freshCode());
        expect(first.status).toBe(200);
        const answers = await race({
          grant_type: 'refresh_token',
          client_id: 'harbour-mobile',
          refresh_token: first.json.refresh_token,
        });
        expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
        expect(answers.filter((r) => r.status !== 200).map((r) => r.json.error)).toEqual(
          Array(AT_ONCE - 1).fill('invalid_grant'),
        );
      }
    }, 60_000);
  },
);
