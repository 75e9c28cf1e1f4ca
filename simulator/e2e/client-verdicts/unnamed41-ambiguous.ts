import { api, auth, CONNECTION, fault, READS } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { ALL_TENANTS, as, TENANTS } from './unnamed30-kit.ts';
import { eioGuidance, issueKey, wasmEdgeOnce } from './unnamed41-kit.ts';

/**
 * Round 41, cases the interface does not decide: the rules' verdict today is stated (`judged`: the rules
 * failed), not claimed right or wrong. A change of rule that moves one must say why.
 */
export const AMBIGUOUS_41: AmbiguousClient8[] = [
  {
    does: 'is a Koka client that, after its key answered idempotency_conflict (a second body under it), sends the ORIGINAL body under that key again',
    why: '"the same key with the same content returns the same response again": the third call is a legal replay of the first, but it follows a 409 and a 200 under the same key; the conflict fails one-key-one-content, and the replay reads as a create repeated after its 200 (only-after-failure); whether going back to the original content is the remedy of idempotency_conflict ("use a new key for each new operation") or a repeat of the success the interface does not say',
    judged: ['idempotency.one-key-one-content', 'retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Koka Original' };
      ok('first', await createWith(t, a, body, 'koka-4131'));
      await sleeper(t)(2_000);
      const conflict = await createWith(t, a, { ...body, scopeLabel: 'Koka Edited' }, 'koka-4131');
      if (conflict.status !== 409 && conflict.status !== 422) throw new Error(`conflict answered ${conflict.status}`);
      await sleeper(t)(2_000);
      await createWith(t, a, body, 'koka-4131');
    },
  },
  {
    does: 'is a WasmEdge importer keying creates by row id only, re-run 25 hours later with one row edited: the same key with other content after the key expired',
    why: '"use a new key for each new operation": the edited row is a new operation under an old key text, but the service let the key expire (24 h) and shows only expiresAt; the rules take an expired key as a new key',
    judged: [],
    async run(t) {
      const key = 'row-id-4132';
      ok('day 1', await createWith(t, auth(t), { ...CONNECTION, scopeLabel: 'Wasm Waffles' }, key));
      await sleeper(t)(25 * 3_600_000);
      ok('day 2', await createWith(t, auth(t), { ...CONNECTION, scopeLabel: 'Wasm Waffles (renamed)' }, key));
    },
  },
  {
    does: 'is a Unison client retrying POST /idempotency-keys through three 500s at once each time (the key request taken as free of side effects)',
    why: '"Modifying calls are repeat-safe through idempotency keys": a key request is a POST that takes no key, so whether it is a modifying call (then its retries owe a key it cannot carry) the interface does not say; the rules treat it as a read, and three immediate retries fail retry.growing-waits as any read’s would',
    judged: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createIdempotencyKey', count: 3 });
      await loop(
        sleeper(t),
        () => issueKey(t, a),
        () => 0,
        3,
      );
    },
  },
  {
    does: 'is an integrator that, after a 429 on tenant A (Retry-After 3), has a sibling pod with its own token (in use throughout) read A at once',
    why: '"respect the wait time of the response": the client as a whole did not wait, but the rules judge a 429 per process, and a read of another process is its own call, owing nothing',
    judged: [],
    options: ALL_TENANTS,
    async run(t) {
      const [A] = TENANTS;
      const p = as(t, A, 600);
      const q = as(t, A, 600);
      ok('p', await get(t, p, '/connectors'));
      ok('q', await get(t, q, '/connectors'));
      fault(t, { kind: 'rate_limited', route: 'listProviders', tenant: A, retryAfterSeconds: 3, count: 1 });
      const refused = await get(t, p, '/providers');
      if (refused.status !== 429) throw new Error(`answered ${refused.status}`);
      await get(t, q, '/providers');
      await sleeper(t)(3_100);
      await get(t, p, '/connectors');
      await get(t, q, '/connectors');
    },
  },
  {
    does: 'is an Eio client retrying a capability check through two 500s on the guidance schedule, a new Idempotency-Key on each attempt',
    why: '"use a new key for each new operation" versus "the same key with the same content": a capability check takes no key and changes nothing, so the rules ignore the keys and judge a read retried; whether sending a new key says "new operation" the interface does not say',
    judged: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'checkCapability', count: 2 });
      const body = { connectorId: 'tillcraft-pos-cloud', capability: 'orders.read' };
      const wait = eioGuidance(seeded(4135));
      ok(
        'check',
        await loop(sleeper(t), (n) => api(t, a, 'POST', '/capabilities', { body, key: `cap-4135-${n}` }), wait, 3),
      );
    },
  },
  {
    does: 'is a WasmEdge importer whose operator runs the import again 60 s after it succeeded: the same three rows, keys and content, all replayed',
    why: '"Modifying calls are repeat-safe through idempotency keys": replaying a finished job under its keys is what keys are for, yet "retry only after rate_limited and internal": the rules take the same key again within 120 s of its 200 as a create repeated after a success',
    judged: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const rows = ['Wasm Wonton', 'Wasm Wurst', 'Wasm Wrap'];
      for (const run of [0, 1]) {
        for (const [i, scopeLabel] of rows.entries())
          ok(`run ${run} row ${i}`, await createWith(t, a, { ...CONNECTION, scopeLabel }, `row-sha1-4136-${i}`));
        if (run === 0) await sleeper(t)(60_000);
      }
    },
  },
  {
    does: 'is a fleet of three WasmEdge pods (a token each, in use throughout), each drawing its jitter once at start-up, each reading two lists through two 500s',
    why: '"slight random spread": each pod repeats its own waits exactly, yet the fleet spreads (the jitter differs per pod), which is what spread is for; the rules compare same-position waits per client across its processes',
    judged: [],
    async run(t) {
      const pods = [4138, 4139, 4140].map((seed) => ({ a: auth(t), wait: wasmEdgeOnce(seeded(seed)) }));
      for (const { a } of pods) ok('warm', await get(t, a, '/connectors'));
      for (const [route, path] of READS.slice(0, 2))
        for (const { a, wait } of pods) {
          fault(t, { kind: 'internal', route, count: 2 });
          ok(path, await loop(sleeper(t), () => get(t, a, path), wait, 3));
          await sleeper(t)(3_000);
        }
      for (const { a } of pods) ok('last', await get(t, a, '/connectors'));
    },
  },
  {
    does: 'is one Koka process (one token) whose two fibres read /providers 150 ms apart, each through three 500s with four attempts of its own, their retries interleaved 150-250 ms apart',
    why: '"A sample client makes up to 4 attempts": each fibre keeps it, but two reads of one content by one process (one token) cannot be told from one read retried: each fibre’s call comes after the other’s failure, so the rules chain them into one operation; the README advises another query for reads that differ',
    judged: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      fault(t, { kind: 'internal', route: 'listProviders', count: 6 });
      const fibre = (waits: number[]) =>
        loop(
          sleep,
          () => get(t, a, '/providers'),
          (n) => waits[n] ?? 0,
          3,
        );
      const first = fibre([600, 1_100, 2_150]);
      await sleep(150);
      const second = fibre([620, 1_130, 2_200]);
      const [r1, r2] = await Promise.all([first, second]);
      if (r1.status !== 200 && r2.status !== 200) throw new Error(`answered ${r1.status}, ${r2.status}`);
    },
  },
  {
    does: 'is an Idris form whose create gave up after four attempts (four 500s, the guidance schedule), then the user submits again 30 s later, the same body under a new key',
    why: '"A sample client makes up to 4 attempts" and "use a new key for each new operation": the client stopped, and a person started the operation anew; but the failed create may have been committed, and the rules take the same content 30 s after a 500 as its retry: a new key there, and a fifth attempt',
    judged: ['retry.attempt-limit', 'retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 4 });
      const body = { ...CONNECTION, scopeLabel: 'Idris Gave Up' };
      const waits = [550, 1_120, 2_210];
      const gaveUp = await loop(
        sleeper(t),
        () => createWith(t, a, body, 'gaveup-4151-a'),
        (n) => waits[n] ?? 0,
        3,
      );
      if (gaveUp.status !== 500) throw new Error(`answered ${gaveUp.status}`);
      await sleeper(t)(30_000);
      ok('again', await createWith(t, a, body, 'gaveup-4151-b'));
    },
  },
];
