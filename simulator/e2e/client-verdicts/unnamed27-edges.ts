import { api, auth, CONNECTION, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { fixturesWithClientForAllTenants } from './unnamed5-fleet.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { swiftRetry } from './unnamed27-kit.ts';

const realMs = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Round 27, well-behaved clients whose correct behaviour looks like a violation: the same read for another
 * tenant after a 403, a corrected create under a new key after a 400, two OAuth clients of one partner,
 * a rolling deploy's streams overlapping, one token streaming two tenants, a renewal before a long stream,
 * a long poll waiting out 429s, waits set by the server and then the client's own.
 */
export const EDGES_WELL_BEHAVED_27: UnnamedClient2[] = [
  // "compare identifier and tenant header": the list refused 403 for a tenant not released, then the same
  // list for the client's own tenant 100 ms later: another tenant, another call.
  {
    does: 'reads /connections for a tenant it is not released for (403), then the same list for its own tenant 100 ms later',
    pass: [],
    async run(t) {
      const a = auth(t);
      const refused = await get(t, { ...a, tenant: 'alpine-bistro' }, '/connections');
      if (refused.status !== 403) throw new Error(`answered ${refused.status}`);
      await sleeper(t)(100);
      ok('own', await get(t, a, '/connections'));
    },
  },
  // "check the request against the published description" then "use a new key for each new operation": a
  // create refused 400 (scopeLabel of one character) is corrected and sent under a new key 2 s later.
  {
    does: 'corrects a create refused 400 (one-character scopeLabel) and sends the corrected body under a new key 2 s later',
    pass: [],
    async run(t) {
      const a = auth(t);
      const bad = await createWith(t, a, { ...CONNECTION, scopeLabel: 'x' }, 'form-submit-1-a8e3c0f2');
      if (bad.status !== 400) throw new Error(`answered ${bad.status}`);
      await sleeper(t)(2_000);
      ok('fixed', await createWith(t, a, { ...CONNECTION, scopeLabel: 'Corrected Cevapi' }, 'form-submit-2-a8e3c0f3'));
    },
  },
  // "Service accounts: one account per tenant and purpose": a partner's provisioning client polls every 30 s
  // with 10-minute tokens renewed a minute before expiry; its reporting client (another OAuth client) reads
  // every 45 s with 15-minute tokens renewed two minutes before. Each client's renewals are its own.
  {
    does: 'runs two OAuth clients of one partner side by side, each renewing its own tokens shortly before expiry over 20 minutes',
    pass: [],
    options: { fixtures: fixturesWithClientForAllTenants('network-integrator') },
    async run(t) {
      let prov = auth(t, undefined, 600);
      let rep = auth(t, 'network-integrator', 900);
      let provAt = 0;
      let repAt = 0;
      for (let s = 0; s <= 1_200; s += 15) {
        if (s - provAt >= 540) [prov, provAt] = [auth(t, undefined, 600), s];
        if (s - repAt >= 780) [rep, repAt] = [auth(t, 'network-integrator', 900), s];
        if (s % 30 === 0) ok('prov', await get(t, prov, '/connections'));
        if (s % 45 === 0) ok('rep', await get(t, { ...rep, tenant: prov.tenant }, '/capabilities'));
        await sleeper(t)(15_000);
      }
    },
  },
  // "resumes without gaps": a rolling deploy. The new pod (its own token) opens a live-only stream while the
  // old pod still reads; the old pod exits, the new pod's stream closes and it resumes from its last number.
  {
    does: 'hands its stream over in a rolling deploy: the new pod opens live-only beside the old one, the old one exits, the new one resumes from its own last number',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const [oldPod, newPod] = [auth(t), auth(t)];
      const reading = readStream(t, oldPod, { idleMs: 1_200, onOpen: () => publish(t, oldPod.tenant, 2) });
      await realMs(300);
      const mine = await readStream(t, newPod, { idleMs: 900, onOpen: () => publish(t, newPod.tenant, 2) });
      await reading;
      const last = mine.at(-1);
      if (last === undefined) throw new Error('new pod read nothing');
      await sleeper(t)(3_000);
      const more = await readStream(t, newPod, {
        cursor: last,
        idleMs: 600,
        onOpen: () => publish(t, newPod.tenant, 1),
      });
      if (more[0] !== last + 1) throw new Error(`resumed at ${more[0]} after ${last}`);
    },
  },
  // "resumes without gaps" per tenant: an integrator streams two tenants with one token; both streams are
  // cut, each is resumed with its own tenant's last number.
  {
    does: 'streams two tenants at once with one token; both are cut and each resumes with its own tenant’s last number',
    pass: ['stream.resume-from-last-read'],
    options: { fixtures: fixturesWithClientForAllTenants('network-integrator') },
    async run(t) {
      const { token } = t.sandbox.issueToken('network-integrator');
      const tenants = ['harbour-kitchens', 'alpine-bistro'];
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 2 });
      const firsts = await Promise.all(
        tenants.map((tenant) => readStream(t, { token, tenant }, { onOpen: () => publish(t, tenant, 2) })),
      );
      await sleeper(t)(2_000);
      await Promise.all(
        tenants.map(async (tenant, i) => {
          const last = firsts[i]?.at(-1);
          if (last === undefined) throw new Error(`${tenant} read nothing`);
          const more = await readStream(
            t,
            { token, tenant },
            { cursor: last, idleMs: 600, onOpen: () => publish(t, tenant, 1) },
          );
          if (more[0] !== last + 1) throw new Error(`${tenant} resumed at ${more[0]}`);
        }),
      );
    },
  },
  // "Tokens are short-lived and are renewed": a poller with a 10-minute token renews it with 100 s left,
  // before opening a long stream, so the stream is not cut by the expiry.
  {
    does: 'renews its 10-minute token with 100 s left before opening a long stream, after polling every minute',
    pass: [],
    async run(t) {
      const a = auth(t, undefined, 600);
      for (let i = 0; i < 9; i++) {
        ok('poll', await get(t, a, '/connections'));
        await sleeper(t)(i < 8 ? 60_000 : 20_000);
      }
      const b = auth(t, undefined, 600);
      await readStream(t, b, { idleMs: 600, onOpen: () => publish(t, b.tenant, 2) });
      ok('after', await get(t, b, '/connections'));
    },
  },
  // "respect the wait time of the response" over a long run: a poller reading every 20 s for 12 minutes
  // meets three 429s (Retry-After 5 s), waits each out and keeps its cadence.
  {
    does: 'polls every 20 s for 12 minutes, waiting out three 429s (Retry-After 5 s) and keeping its cadence',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      for (let i = 0; i < 36; i++) {
        if (i === 8 || i === 19 || i === 30)
          fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 5, count: 1 });
        let r = await get(t, a, '/connections');
        if (r.status === 429) {
          await sleeper(t)(r.retryAfterMs + 150);
          r = await get(t, a, '/connections');
        }
        ok('poll', r);
        await sleeper(t)(20_000);
      }
    },
  },
  // "A wait the server set is not judged": waits of exactly Retry-After (1 s) after two 429s, then the
  // client's own growing draw after a 500, on two reads.
  {
    does: 'waits exactly Retry-After (1 s) after two 429s, then its own swift-retry draw after a 500, on two reads',
    pass: ['retry.respects-retry-after', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const own = swiftRetry(seeded(2727));
      for (const [route, path] of [
        ['listProviders', '/providers'],
        ['listCapabilities', '/capabilities'],
      ] as const) {
        fault(t, { kind: 'rate_limited', route, retryAfterSeconds: 1, count: 2 });
        fault(t, { kind: 'internal', route, count: 1 });
        const wait = (n: number, r: { status: number; retryAfterMs: number }) =>
          r.status === 429 ? r.retryAfterMs : 1_000 + own(n);
        ok(path, await loop(sleeper(t), () => get(t, a, path), wait, 3));
        await sleeper(t)(5_000);
      }
    },
  },
  // "Sample calls send a header Service-Version": a create under a key from POST /idempotency-keys, whose
  // key request and create both carry the earlier published version 2026-06-12.
  {
    does: 'pins the earlier published Service-Version 2026-06-12 and creates under a key from POST /idempotency-keys through a 500',
    pass: ['retry.same-key-and-content', 'version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      const v = { version: '2026-06-12' };
      const k = ok(
        'key',
        await api(t, a, 'POST', '/idempotency-keys', { body: { operation: 'connection.create' }, ...v }),
      );
      const key = String(k.json?.data?.idempotencyKey);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Pinned Pierogi' };
      const send = () => api(t, a, 'POST', '/connections', { body, key, ...v });
      ok('create', await loop(sleeper(t), send, swiftRetry(seeded(2728)), 3));
    },
  },
];
