// Log compaction (README "Shared sandbox", Limits): a replica writes its applied state as a snapshot
// every `compact` entries and the log is trimmed behind it, so the log stays bounded; a replica
// started afterwards builds the same sandbox from the snapshot and the rest of the log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWholeAuditChain } from '../../contract/audit-paging.ts';
import { authorize, MOBILE_REDIRECT, oauthPost, pkcePair } from '../behaviour/oauth-helpers.ts';
import type { Target } from '../harness.ts';
import { connectRedis, type RedisEngine } from '../../state/redis/redis-engine.ts';
import { NO_REDIS_REASON, REDIS_SERVER, startRedis, type TestRedis } from '../redis-server.ts';
import {
  call,
  clientToken,
  control,
  openStream,
  type PlainReplica,
  startLocalReplica,
  startReplica,
} from './replicas.ts';

const HARBOUR = { id: 'harbour-backend', secret: 'hk-sandbox-secret-5f2c9a7e1b3d4c60', tenant: 'harbour-kitchens' };
const EVERY = 20;
const WRITES = 120;
const body = (i: number) => ({
  connectorId: 'tillcraft-pos-cloud',
  environment: 'sandbox',
  scopeLabel: `Venue ${i}`,
  capabilities: ['menu.read'],
});

describe.skipIf(!REDIS_SERVER)(`log compaction${REDIS_SERVER ? '' : ` (skipped: ${NO_REDIS_REASON})`}`, () => {
  let redis: TestRedis;
  let engine: RedisEngine;
  const replicas: PlainReplica[] = [];
  beforeAll(async () => {
    redis = await startRedis();
    engine = await connectRedis(redis.url, { prefix: 'ncs:' });
  });
  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.stop()));
    await engine?.close();
    await redis?.close();
  });

  it('keeps the log bounded; a replica started after compaction rebuilds the same state and reads on', async () => {
    const store = `${redis.url}?compact=${EVERY}`;
    const a = await startReplica(store);
    replicas.push(a);
    const token = await clientToken(a.info.baseUrl, HARBOUR.id, HARBOUR.secret);
    const on = (r: PlainReplica) =>
      ({ baseUrl: r.info.baseUrl, fetch: globalThis.fetch.bind(globalThis) }) as unknown as Target;
    // A refresh token of a person's grant, issued (and rotated once) long before the snapshot.
    const { verifier, challenge } = pkcePair();
    const signIn = await authorize(on(a), {
      response_type: 'code',
      client_id: 'harbour-mobile',
      redirect_uri: MOBILE_REDIRECT,
      scope: 'catalog:read connections:read',
      state: 'st-compaction',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const exchanged = await oauthPost(on(a), {
      grant_type: 'authorization_code',
      client_id: 'harbour-mobile',
      code: signIn.params.get('code') ?? '',
      redirect_uri: MOBILE_REDIRECT,
      code_verifier: verifier,
    });
    const refresh = (refresh_token: string) => ({
      grant_type: 'refresh_token',
      client_id: 'harbour-mobile',
      refresh_token,
    });
    const spent = exchanged.json.refresh_token as string;
    const rotated = await oauthPost(on(a), refresh(spent));
    expect(rotated.status).toBe(200);
    const keys: string[] = [];
    for (let i = 0; i < WRITES; i++) {
      keys.push(`compact-key-${i}`);
      const r = await call(a.info.baseUrl, token, HARBOUR.tenant, '/connections', { body: body(i), key: keys[i] });
      expect(r.status).toBe(200);
    }
    // Activation (pending -> active) goes through the log too. It is due 2 s after each creation on the
    // simulator clock: moving the clock (a log entry as well, applied by every replica) makes it due at
    // once; then wait until every connection is active.
    expect((await control(a.info.baseUrl, '/clock/advance', { seconds: 2 })).status).toBe(200);
    const active = async () =>
      (await call(a.info.baseUrl, token, HARBOUR.tenant, '/connections')).json.data.connections.filter(
        (c: { state: string }) => c.state === 'active',
      ).length;
    for (const end = Date.now() + 10_000; (await active()) < WRITES && Date.now() < end; )
      await new Promise((r) => setTimeout(r, 50));
    expect(await active()).toBe(WRITES);
    const length = await engine.command<number>(['XLEN', 'ncs:log']);
    expect(length).toBeLessThan(3 * EVERY + 5); // far fewer than the writes made
    const [snapshotId] = await engine.command<[string | null]>(['HMGET', 'ncs:snapshot', 'id']);
    expect(snapshotId).toMatch(/^\d+-\d+$/);

    // Started after compaction, in this process (replica a is a process of its own).
    const b = await startLocalReplica(store);
    replicas.push(b);
    const list = async (base: string) => (await call(base, token, HARBOUR.tenant, '/connections')).json.data;
    const [onA, onB] = [await list(a.info.baseUrl), await list(b.info.baseUrl)];
    expect(onA.count).toBe(WRITES);
    expect(onB).toEqual(onA);

    // The audit chain verifies on the new replica, whole.
    const chain = await verifyWholeAuditChain({ baseUrl: b.info.baseUrl, token, tenant: HARBOUR.tenant });
    expect(chain).toMatchObject({ ok: true });

    // The stream from the start: the same numbers and messages on both.
    const read = async (base: string) => {
      const s = await openStream(base, token, HARBOUR.tenant, '?cursor=0');
      await s.waitFor(WRITES * 2);
      await s.close();
      return s.events;
    };
    const streamA = await read(a.info.baseUrl);
    expect(streamA.length).toBeGreaterThanOrEqual(WRITES);
    expect(await read(b.info.baseUrl)).toEqual(streamA);

    // The grant came with the snapshot: its current refresh token rotates on the new replica, the
    // spent one is refused there (and revokes the grant, as anywhere).
    const rotatedOnB = await oauthPost(on(b), refresh(rotated.json.refresh_token));
    expect(rotatedOnB.status, rotatedOnB.text).toBe(200);
    expect((await oauthPost(on(b), refresh(spent))).json.error).toBe('invalid_grant');
    expect((await oauthPost(on(a), refresh(rotatedOnB.json.refresh_token))).json.error).toBe('invalid_grant');

    // An early key replays on the new replica (its outcome came with the snapshot).
    const again = await call(b.info.baseUrl, token, HARBOUR.tenant, '/connections', { body: body(0), key: keys[0] });
    expect(again.json.meta.replayed).toBe(true);
    expect(again.json.data.id).toBe(onA.connections.find((c: { scopeLabel: string }) => c.scopeLabel === 'Venue 0').id);

    // Writes go on from either replica, numbered on from the same place.
    const next = await call(b.info.baseUrl, token, HARBOUR.tenant, '/connections', {
      body: body(999),
      key: 'after-compaction-1',
    });
    expect(next.status).toBe(200);
    expect(await list(a.info.baseUrl)).toEqual(await list(b.info.baseUrl));
    const last = Number(streamA.at(-1)?.id);
    const tail = await openStream(a.info.baseUrl, token, HARBOUR.tenant, `?cursor=${last}`);
    await tail.waitFor(1);
    await tail.close();
    expect(Number(tail.events[0]?.id)).toBe(last + 1);
  }, 120_000);
});
