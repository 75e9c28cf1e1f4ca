import type { Target } from '../harness.ts';
import { type Auth, api, CONNECTION, publish, type Reply, readStream } from './unnamed-kit.ts';
import { alternate } from './unnamed5-fleet.ts';
import { sleeper } from './unnamed6-kit.ts';
import { createWith } from './unnamed11-kit.ts';
import { as, TENANTS } from './unnamed30-kit.ts';

/**
 * Round 42 goes to the rules' edges through stacks no earlier round named: Go kit's `lb.Retry`, Alibaba
 * Sentinel's circuit breaker (its half-open probe as the retry), an Apigee proxy with two TargetServers (the
 * main and the alternate address taken as one service), aria2c's `--max-tries`, Azure Service Bus redelivery
 * keyed by MessageId, FeathersJS client hooks, a Sails.js cleanup script, Bun workers, js-yaml reading a
 * version date. Each schedule is written from the documentation (none is installed), with a seeded draw where
 * it draws; it gets the retry number (0 for the first retry) and returns ms.
 */

/** Go kit `lb.Retry(4, time.Second, balancer)`: the next endpoint at once, no sleep between attempts. */
export const goKitRetry = () => 0;

/** Sentinel `DegradeRule` (`timeWindow` 5 s): the breaker half-opens after the same 5 s each trip, one probe. */
export const sentinelProbe = () => 5_000;

/**
 * A breaker whose open-state wait doubles each trip with a draw (Resilience4j's
 * `waitIntervalFunctionInOpenState = IntervalFunction.ofExponentialRandomBackoff(1 s, 2, 0.5)`).
 */
export const breakerExponential = (random: () => number) => (n: number) =>
  Math.round(1_000 * 2 ** n * (0.5 + random()));

/** aria2c `--max-tries=5 --retry-wait=1` (its default tries is 5): the same 1 s before each of four retries. */
export const ARIA2 = { maxTries: 5, retryWaitMs: 1_000 };

/** Bun `await Bun.sleep(500 * 2 ** n + Math.random() * 250)`: the guidance's schedule. */
export const bunGuidance = (random: () => number) => (n: number) => 500 * 2 ** n + Math.floor(random() * 250);

/** js-yaml reads an unquoted `serviceVersion: 2026-06-12` as a Date; the client sends `toISOString()`. */
export const YAML_VERSION = new Date(Date.UTC(2026, 5, 12)).toISOString();

/** The interface's earlier published version, sent on purpose (a client pinned to it). */
export const EARLIER_VERSION = '2026-06-12';

/**
 * Apigee with two TargetServers: a read that failed on the main address is sent at once to the alternate one
 * (the load balancer's `MaxFailures` failover), one token for both.
 */
export async function apigeeFailover(t: Target, a: Auth, path: string): Promise<Reply> {
  const first = await api(t, a, 'GET', path);
  if (first.status === 200) return first;
  return api(alternate(t), a, 'GET', path);
}

/**
 * One reader keeping two streams, one on the main address and one on the alternate, both cut after two
 * messages; each is then resumed with `cursorOf(main, alt)` of its own (main first).
 */
export async function twoStreams(t: Target, a: Auth, cursorOf: (own: number[], other: number[]) => number) {
  t.sandbox.control.addFault({ kind: 'stream_cut', afterMessages: 2, count: 2 });
  let opened = 0;
  const onOpen = () => {
    opened += 1;
    if (opened === 2) publish(t, a.tenant, 2);
  };
  const [main, alt] = await Promise.all([
    readStream(t, a, { count: 2, onOpen }),
    readStream(alternate(t), a, { count: 2, onOpen }),
  ]);
  if (main.length !== 2 || alt.length !== 2) throw new Error(`read ${main.length} and ${alt.length} of 2`);
  await sleeper(t)(1_000);
  await readStream(t, a, { cursor: cursorOf(main, alt), idleMs: 400 });
  await readStream(alternate(t), a, { cursor: cursorOf(alt, main), idleMs: 400 });
}

/** A webhook the cleanup scripts remove; returns its id. */
export async function someWebhook(t: Target, a: Auth, key: string): Promise<string> {
  const r = await api(t, a, 'POST', '/webhooks', {
    body: { url: 'http://127.0.0.1:9/hooks', events: ['order.created'] },
    key,
  });
  const id = r.json?.data?.id;
  if (r.status !== 200 || typeof id !== 'string') throw new Error(`webhook answered ${r.status}`);
  return id;
}

/**
 * An Azure Service Bus message carrying a create; the worker keys it by the message's MessageId. The first
 * delivery answers 500 (committed); `redelivered` says what MessageId the second delivery carries, 40 s later.
 */
export async function serviceBusCreate(t: Target, a: Auth, o: { label: string; secondId: string }) {
  const body = { ...CONNECTION, scopeLabel: o.label };
  t.sandbox.control.addFault({ kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal' });
  const one = await createWith(t, a, body, 'sb-msg-4201-a');
  await sleeper(t)(40_000);
  const two = await createWith(t, a, body, o.secondId);
  if (one.status !== 500 || two.status !== 200) throw new Error(`answered ${one.status}, ${two.status}`);
  return two;
}

/**
 * An integrator reading tenants A and B with one 10-minute token held in a cache per tenant (`perTenant`) or
 * one cache for both. Past its expiry A's read is refused 401 and A's cache renews; 10 s later B reads, with
 * its own cache's token (the expired one, refused 401 and then renewed) or the shared renewed one.
 */
export async function expiryAcrossTenants(t: Target, o: { perTenant: boolean }) {
  const [A, B] = TENANTS;
  const sleep = sleeper(t);
  const first = as(t, A, 600);
  const cache = new Map<string, Auth>([
    [A, first],
    [B, { ...first, tenant: B }],
  ]);
  const read = async (tenant: string) => {
    const held = cache.get(tenant) ?? first;
    const r = await api(t, { ...held, tenant }, 'GET', '/connectors');
    if (r.status !== 401) return r;
    const renewed = as(t, tenant, 600);
    for (const name of o.perTenant ? [tenant] : [A, B]) cache.set(name, { ...renewed, tenant: name });
    return api(t, renewed, 'GET', '/connectors');
  };
  for (const tenant of [A, B]) if ((await read(tenant)).status !== 200) throw new Error(`${tenant} refused`);
  await sleep(601_000);
  if ((await read(A)).status !== 200) throw new Error('A after renewal refused');
  await sleep(10_000);
  if ((await read(B)).status !== 200) throw new Error('B after renewal refused');
}

/** A booking with a capability the connector does not offer: refused 409 `capability_denied`. */
export const DENIED = { ...CONNECTION, scopeLabel: 'Denied Diner', capabilities: ['orders.read', 'loyalty.points'] };

/**
 * Two streams of one reader (one token), main and alternate address, opened together: the main one is cut
 * after 2 messages, the alternate reads on to 4 and is cut. `resume(main, alt)` gives the two cursors sent
 * 1 s later (main first).
 */
export async function staggeredStreams(
  t: Target,
  a: Auth,
  resume: (main: number[], alt: number[]) => [number, number],
) {
  const control = t.sandbox.control;
  control.addFault({ kind: 'stream_cut', afterMessages: 2, count: 1 });
  let altOpen: () => void = () => undefined;
  const altOpened = new Promise<void>((r) => (altOpen = r));
  const main = readStream(t, a, {
    count: 2,
    onOpen: () => control.addFault({ kind: 'stream_cut', afterMessages: 4, count: 1 }),
  });
  await new Promise((r) => setTimeout(r, 50));
  const alt = readStream(alternate(t), a, { count: 4, onOpen: () => altOpen() });
  await altOpened;
  publish(t, a.tenant, 4);
  const [m, n] = await Promise.all([main, alt]);
  if (m.join() !== '1,2' || n.join() !== '1,2,3,4') throw new Error(`read ${m.join()} and ${n.join()}`);
  await sleeper(t)(1_000);
  const [first, second] = resume(m, n);
  await readStream(t, a, { cursor: first, idleMs: 400 });
  await readStream(alternate(t), a, { cursor: second, idleMs: 400 });
}

/**
 * A stream restarted after 2 messages (503 with Retry-After for 3 s on the sandbox clock); the reader tries
 * `addresses` in turn at once (main first), then sleeps what `wait(retryAfterMs)` says, until it is back;
 * every reconnect carries the last id read. Returns the ids read after the restart.
 */
export async function restartFailover(
  t: Target,
  a: Auth,
  o: { quick: number; wait: (retryAfterMs: number) => number },
) {
  t.sandbox.control.addFault({ kind: 'stream_restart', afterMessages: 2, downMs: 3_000, count: 1 });
  const ids = await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 2) });
  if (ids.length !== 2) throw new Error(`read ${ids.length} of 2`);
  const targets = [alternate(t), t];
  for (let attempt = 0; attempt < 6; attempt++) {
    let refused = 0;
    const after = await readStream(targets[attempt % 2] ?? t, a, {
      cursor: ids.at(-1) ?? 0,
      idleMs: 600,
      onOpen: () => publish(t, a.tenant, 1),
      onRefused: (_s, ms) => (refused = ms || 1_000),
    });
    if (!refused) return after;
    if (attempt + 1 >= o.quick) await sleeper(t)(o.wait(refused));
  }
  throw new Error('the stream never came back');
}
