import { loadFixtures } from '../../app/fixtures-loader.ts';
import type { FixtureSet } from '../../contract/fixtures.ts';
import { sleepOn, type Target } from '../harness.ts';
import { type Auth, auth, type Reply } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';

/**
 * Round 5 runs deployments as they really run: several pods (processes) of one client id at once, each
 * with its own token, key generator and stream. A pod is an async function that sleeps on the fleet's
 * clock; `fleet` runs the pods as a discrete-event scheduler on the sandbox clock: one pod at a time
 * goes on (until it sleeps again or ends), the one due earliest first. The pods' calls interleave as
 * their sleeps say, deterministically, however busy the machine, and no pod ever waits in real time.
 */
export type Sleep = (ms: number) => Promise<void>;
export type Pod = (sleep: Sleep) => Promise<void>;

interface Waiter {
  until: number;
  order: number;
  wake: () => void;
}

/**
 * Runs the pods, pod i starting `startMs[i]` (default 0) after now; resolves when all ended, rejects
 * with the first pod's error.
 * @example await fleet(t, [podA, podB], [0, 40]);
 */
export async function fleet(t: Target, pods: Pod[], startMs: number[] = []): Promise<void> {
  const clock = t.sandbox.state.clock;
  const queue: Waiter[] = [];
  let order = 0;
  // Resolved when the pod that runs now sleeps again or ends: the next one may go on.
  let yielded: (() => void) | undefined;
  const sleepUntil = (until: number) =>
    new Promise<void>((wake) => {
      queue.push({ until, order: order++, wake });
      yielded?.();
    });
  const errors: unknown[] = [];
  const start = clock.now();
  const done = pods.map((pod, i) =>
    sleepUntil(start + (startMs[i] ?? 0))
      .then(() => pod((ms) => sleepUntil(clock.now() + ms)))
      .catch((err: unknown) => void errors.push(err))
      .finally(() => yielded?.()),
  );
  for (let next = takeEarliest(queue); next; next = takeEarliest(queue)) {
    const behind = next.until - clock.now();
    if (behind > 0) await sleepOn(t, behind);
    const turn = new Promise<void>((resolve) => (yielded = resolve));
    next.wake();
    await turn;
  }
  await Promise.all(done);
  if (errors.length) throw errors[0];
}

function takeEarliest(queue: Waiter[]): Waiter | undefined {
  queue.sort((x, y) => x.until - y.until || x.order - y.order);
  return queue.shift();
}

/** A pod: its own token (of the client's id), its own seeded draws, its own key counter under its name. */
export interface PodKit {
  name: string;
  auth: Auth;
  random: () => number;
  /** The pod's next Idempotency-Key: its name and a counter (unique across the fleet). */
  key: () => string;
}

/** A pod of `client` (default the fixtures' default client) named `name`, drawing from `seed`. */
export function pod(t: Target, name: string, seed: number, client?: string): PodKit {
  let n = 0;
  return { name, auth: auth(t, client), random: seeded(seed), key: () => `${name}-${String(++n).padStart(4, '0')}` };
}

/** The guidance's schedule: 500 ms times 2 to the power of the retry (0 for the first) plus up to 250 ms. */
export const guidanceWait = (random: () => number) => (retry: number) => 500 * 2 ** retry + Math.floor(random() * 250);

/** The target with its alternate base URL as the main one (a client configured with the second address). */
export const alternate = (t: Target): Target => ({ ...t, baseUrl: t.altBaseUrl });

/** The built-in fixtures with one client released for every tenant (a client serving three businesses). */
export function fixturesWithClientForAllTenants(client: string): FixtureSet {
  const f = loadFixtures();
  const tenants = f.tenants.map((x) => x.id);
  return { ...f, clients: f.clients.map((c) => (c.id === client ? { ...c, tenants } : c)) };
}

/**
 * One operation retried by a pod: `wait(retry, answer)` is the sleep before retry number `retry` (0 for
 * the first), undefined when the pod does not retry that answer; at most `maxRetries` retries.
 */
export async function retried(
  sleep: Sleep,
  send: () => Promise<Reply>,
  wait: (retry: number, r: Reply) => number | undefined,
  maxRetries = 3,
): Promise<Reply> {
  let r = await send();
  for (let retry = 0; retry < maxRetries; retry++) {
    const ms = wait(retry, r);
    if (ms === undefined) return r;
    await sleep(ms);
    r = await send();
  }
  return r;
}

/** Retries 429, 5xx and no answer; anything else is final. */
export const transient = (r: Reply) => r.status === 0 || r.status === 429 || r.status >= 500;
