import type { Target } from '../harness.ts';
import { type Auth, api, auth, CONNECTION, publish, type Reply, readStream } from './unnamed-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get } from './unnamed8-kit.ts';
import { createWith } from './unnamed11-kit.ts';
import { as, TENANTS } from './unnamed30-kit.ts';

/**
 * Round 41 goes where the rules have edges more than to new languages: keys fetched from the service's own
 * `POST /idempotency-keys` (a POST that requires no key: a read to the rules), retries that cross a token
 * renewal and a tenant switch, a stream resumed after a `stream.reset`, keys derived from rows re-used a day
 * later. The stacks are ones no earlier round named: OCaml Eio (`Eio.Time.sleep`), Koka, Idris, WasmEdge
 * (Rust compiled to WASI), Apache NiFi InvokeHTTP with RetryFlowFile, Unison. Each schedule is written from
 * the documentation (none is installed), with a seeded draw where it draws; it gets the retry number (0 for
 * the first retry) and returns ms.
 */

/** OCaml Eio `Eio.Time.sleep clock (0.5 *. 2. ** n +. Random.float 0.25)`: the guidance's schedule. */
export const eioGuidance = (random: () => number) => (n: number) => 500 * 2 ** n + Math.floor(random() * 250);

/** Eio reading `Retry-After` with `float_of_string s /. 1000.` (taken for ms): `max` of that and its own. */
export const eioRetryAfterAsMs = (random: () => number) => (n: number, r: Reply) =>
  Math.max(r.retryAfterMs / 1_000, eioGuidance(random)(n));

/** Eio honouring Retry-After as seconds, the floor under its own schedule. */
export const eioRetryAfter = (random: () => number) => (n: number, r: Reply) =>
  Math.max(r.retryAfterMs, eioGuidance(random)(n));

/**
 * Koka decorrelated jitter (`min(cap, random(base, prev * 3))`, base 400, cap 5 s), its `prev` reset at the
 * first retry of each operation: a shorter wait may follow a longer one.
 */
export function kokaDecorrelated(random: () => number) {
  let prev = 400;
  return (n: number) => {
    if (n === 0) prev = 400;
    prev = Math.min(5_000, Math.round(400 + random() * (prev * 3 - 400)));
    return prev;
  };
}

/** Koka `retry(5)` read as "five attempts" where the effect handler makes five retries (six attempts). */
export const KOKA_RETRIES = 5;

/** Idris `sleep ((n + 1) * 700 + !(randomRIO (0, 300)))`: linear growth with a draw. */
export const idrisLinear = (random: () => number) => (n: number) => (n + 1) * 700 + Math.floor(random() * 300);

/** Apache NiFi RetryFlowFile (Maximum Retries 3) penalising the FlowFile by its default 30 sec each time. */
export const nifiPenalty = () => 30_000;

/** WasmEdge (Rust on WASI): the jitter drawn once, when the module starts, and added to every wait. */
export function wasmEdgeOnce(random: () => number) {
  const jitter = Math.floor(random() * 250);
  return (n: number) => 500 * 2 ** n + jitter;
}

/** A key issued by the service (`POST /idempotency-keys`): the reply, the key in `json.data.idempotencyKey`. */
export const issueKey = (t: Target, a: Auth) =>
  api(t, a, 'POST', '/idempotency-keys', { body: { operation: 'connection.create' } });
export const keyOf = (r: Reply): string => {
  const key = r.json?.data?.idempotencyKey;
  if (r.status !== 200 || typeof key !== 'string') throw new Error(`key answered ${r.status}`);
  return key;
};

/**
 * An integrator reading tenant A through two 500s with a 1-second token it also uses for tenant B (read
 * between A's attempts); A's third attempt finds the token expired (401), a new one is taken at once and A
 * read again. `freshCount`: the retry counter starts again with the new token (three more 500s).
 */
export async function renewalMidRetry(t: Target, o: { freshCount: boolean }) {
  const sleep = sleeper(t);
  const [A, B] = TENANTS;
  const first = as(t, A, 1);
  // Faults answer before the token is checked: the three 500s after the renewal are armed once the 401 came.
  t.sandbox.control.addFault({ kind: 'internal', route: 'listProviders', tenant: A, count: 2 });
  const seen: number[] = [];
  seen.push((await get(t, first, '/providers')).status);
  await get(t, { ...first, tenant: B }, '/connectors');
  await sleep(620);
  seen.push((await get(t, first, '/providers')).status);
  await get(t, { ...first, tenant: B }, '/connectors');
  await sleep(1_130);
  seen.push((await get(t, first, '/providers')).status);
  const renewed = as(t, A, 600);
  if (o.freshCount) t.sandbox.control.addFault({ kind: 'internal', route: 'listProviders', tenant: A, count: 3 });
  for (const w of o.freshCount ? [0, 560, 1_090, 2_170] : [0]) {
    await sleep(w);
    const s = (await get(t, renewed, '/providers')).status;
    seen.push(s);
    if (s === 200) break;
  }
  await get(t, { ...renewed, tenant: B }, '/connectors');
  const expected = o.freshCount ? [500, 500, 401, 500, 500, 500, 200] : [500, 500, 401, 200];
  if (seen.join() !== expected.join()) throw new Error(`answered ${seen.join()}`);
}

/** A stream read cut after 3 messages, resumed with 3 into a `stream.reset` (cursor expired), then cut again. */
export async function resetThenResume(t: Target, a: Auth, resumeAt: (read: number[]) => number) {
  const sleep = sleeper(t);
  t.sandbox.control.addFault({ kind: 'stream_cut', afterMessages: 3, count: 1 });
  const first = await readStream(t, a, { count: 3, onOpen: () => publish(t, a.tenant, 3) });
  if (first.length !== 3) throw new Error(`read ${first.length} of 3`);
  await sleep(1_000);
  t.sandbox.control.addFault({ kind: 'cursor_expired', count: 1 });
  t.sandbox.control.addFault({ kind: 'stream_cut', afterMessages: 3, count: 1 });
  const second = await readStream(t, a, {
    cursor: first.at(-1) ?? 0,
    count: 3,
    onOpen: () => publish(t, a.tenant, 3),
  });
  if (second.length !== 3) throw new Error(`read ${second.length} of 3 after the reset`);
  await sleep(1_000);
  await readStream(t, a, { cursor: resumeAt([...first, ...second]), idleMs: 400 });
}

/**
 * A create whose first attempt commits and answers 500 under a 1-second token; the retry 1.2 s later finds
 * the token expired (401), and a new token sends the third attempt at once, under `thirdKey` (the same key,
 * or the new one a request builder tied to the token makes). Returns the third answer.
 */
export async function createAcrossRenewal(t: Target, label: string, keys: [string, string]) {
  const body = { ...CONNECTION, scopeLabel: label };
  const first = auth(t, undefined, 1);
  t.sandbox.control.addFault({ kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal' });
  const one = await createWith(t, first, body, keys[0]);
  await sleeper(t)(1_200);
  const two = await createWith(t, first, body, keys[0]);
  const three = await createWith(t, auth(t), body, keys[1]);
  if (one.status !== 500 || two.status !== 401 || three.status !== 200)
    throw new Error(`answered ${one.status}, ${two.status}, ${three.status}`);
  return three;
}
