import { setupServer } from 'msw/node';
import { type Clock, createClock } from '../lib/clock.ts';
import { serve } from '../app/serve.ts';
import { createSandbox, type Sandbox, type SandboxOptions } from '../app/sandbox.ts';

/** One runtime of the simulator as the behaviour suite sees it: two base URLs, a fetch, the sandbox behind. */
export interface Target {
  name: 'http' | 'msw';
  baseUrl: string;
  altBaseUrl: string;
  fetch: typeof fetch;
  sandbox: Sandbox;
  close(): Promise<void>;
}

export type TargetFactory = (options?: SandboxOptions) => Promise<Target>;

/** The suite makes thousands of calls with one client: rate-limit tests set their own limits. */
const SUITE_DEFAULTS: SandboxOptions = {
  rateLimit: { limit: 100_000, windowSeconds: 60 },
  // Short webhook retry waits so retry tests take milliseconds, not seconds.
  webhooks: { baseDelayMs: 20, maxAttempts: 3, timeoutMs: 2000 },
};

/** The simulator on node:http (port 0, plus a second listener for the alternate base URL). */
export const httpTarget = async (options: SandboxOptions & { store?: string } = {}): Promise<Target> => {
  // A test closes its server once every call it made was answered, so no request can be on its way:
  // the shutdown grace for idle keep-alive connections (500 ms per close) would only be waited out.
  // The grace itself is tested where it matters (reliability/shutdown-keep-alive.e2e.test.ts). Likewise
  // the 2 s a connection that never carried a request is spared (a client's spare connection, e.g.
  // one undici opened beside a cancelled stream): no request of the test can come on it any more.
  const limits = { shutdownGraceMs: 0, firstRequestGraceMs: 0 };
  const running = await serve({ ...SUITE_DEFAULTS, ...options, limits, port: 0, altPort: 0 });
  return {
    name: 'http',
    baseUrl: running.baseUrl,
    altBaseUrl: running.altBaseUrl!,
    fetch: globalThis.fetch.bind(globalThis),
    sandbox: running.sandbox,
    close: () => running.close(),
  };
};

/** The simulator as MSW handlers intercepting globalThis.fetch in this process. */
export const mswTarget: TargetFactory = async (options = {}) => {
  const sandbox = createSandbox({ ...SUITE_DEFAULTS, ...options });
  const server = setupServer(...sandbox.handlers);
  server.listen({ onUnhandledFrame: 'error' });
  await sandbox.ready;
  return {
    name: 'msw',
    baseUrl: sandbox.baseUrl,
    altBaseUrl: sandbox.altBaseUrl,
    fetch: globalThis.fetch.bind(globalThis),
    sandbox,
    async close() {
      server.close();
    },
  };
};

/**
 * A sandbox clock for tests that judge time (the client verdicts): it stands still in real time and
 * moves only when advanced, plus one microsecond per reading, so calls still come in a strict order
 * and every wait the rules measure is the time the test advanced, give or take microseconds, however
 * busy the machine. Fault windows, token lifetimes and lifecycle transitions follow it too.
 * @example const t = await httpTarget({ clock: testClock() }); await sleepOn(t, 300);
 */
export function testClock(start = Date.now()): Clock {
  let now = start;
  return createClock(() => {
    now += 0.001;
    return now;
  });
}

/**
 * A client's sleep on the sandbox clock: moves it `ms` on instead of waiting (advancing fires at once
 * whatever fell due: a fault window's end, a transition). Over HTTP the same clock: the server is in process.
 * @example await sleepOn(t, 500); // what `await sleep(500)` was
 */
export async function sleepOn(target: Target, ms: number): Promise<void> {
  const clock = target.sandbox.state.clock;
  // To the time this sleep ends, not by ms: two operations of one client sleeping at the same moment
  // (both registered before either moves the clock) wake together, as they would in real time.
  const until = clock.now() + ms;
  // A few turns of the event loop first: the server notices a connection the client just dropped (its
  // own timeout) in the next poll, and that give-up must be timed before the clock moves. Turns, not
  // milliseconds: a loopback close is ready at the next poll however busy the machine.
  for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
  const behind = until - clock.now();
  if (behind > 0) await clock.advance(behind);
  // What the advance set off (a held answer dropped, a stall's end) settles before the client goes on.
  await new Promise((resolve) => setImmediate(resolve));
}

/**
 * Resolves once `n` more callbacks wait on the sandbox clock than `before` (a timeline size read before
 * the calls were sent): calls held by a latency or timeout fault. In real time a held call and the
 * client's own sleep overlap by themselves; on a clock the test moves, the clock must not move before
 * the call is held (over HTTP it arrives a moment after it was sent), or its hold starts later.
 * @example const before = held(t); const slow = create(...); await untilHeld(t, before); await sleepOn(t, 400);
 */
export async function untilHeld(target: Target, before: number, n = 1): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (held(target) < before + n) {
    if (Date.now() > deadline) throw new Error(`${n} held call(s) expected on the sandbox clock`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/**
 * A client's own timer on the sandbox clock, for a call a fault may hold: resolves `true` once the clock
 * passes `ms` from now, `false` if `call` settles first. Nothing moves the clock while the client waits
 * but this: once the sandbox holds the call (a latency or timeout fault: one more callback on its
 * clock), the timer is the next thing to happen, so the clock is moved to it. A call that is not held
 * is answered without the clock moving, however long that takes in real time.
 * @example const timedOut = await clientTimer(t, 250, call); if (timedOut) abort();
 */
export function clientTimer(target: Target, ms: number, call: Promise<unknown>): Promise<boolean> {
  const clock = target.sandbox.state.clock;
  let settled = false;
  return new Promise<boolean>((resolve) => {
    const cancel = target.sandbox.state.timeline.at(clock.now() + ms, () => resolve(!settled));
    const before = held(target);
    const answered = () => {
      settled = true;
      cancel();
      resolve(false);
    };
    void call.then(answered, answered);
    void (async () => {
      while (!settled && held(target) < before + 1) await new Promise((r) => setTimeout(r, 1));
      if (!settled) await sleepOn(target, ms);
    })();
  });
}

/** How many callbacks wait on the sandbox clock (for `untilHeld`). */
export const held = (target: Target): number => target.sandbox.state.timeline.size();

export interface CallOptions {
  /** Bearer token; `false` sends none; default: a token of the fixtures' default client. */
  token?: string | false;
  /** x-service-tenant; `false` sends none; default: the token's tenant. */
  tenant?: string | false;
  headers?: Record<string, string>;
  body?: unknown;
  /** Raw body text (sent as is). */
  raw?: string;
  base?: 'main' | 'alt';
}

export interface CallResult {
  status: number;
  headers: Headers;
  json: any;
  text: string;
}

/** A small client for the suite: authenticated by default, JSON in and out. */
export function client(target: Target) {
  const def = target.sandbox.issueToken();
  return {
    token: def.token,
    tenant: def.tenant,
    async call(method: string, path: string, opts: CallOptions = {}): Promise<CallResult> {
      const headers: Record<string, string> = {};
      const token = opts.token === undefined ? def.token : opts.token;
      if (token) headers.authorization = `Bearer ${token}`;
      const tenant = opts.tenant === undefined ? def.tenant : opts.tenant;
      if (tenant) headers['x-service-tenant'] = tenant;
      let body: string | undefined;
      if (opts.raw !== undefined) body = opts.raw;
      else if (opts.body !== undefined) {
        body = JSON.stringify(opts.body);
        headers['content-type'] = 'application/json';
      }
      Object.assign(headers, opts.headers);
      const base = opts.base === 'alt' ? target.altBaseUrl : target.baseUrl;
      return readResult(
        await target.fetch(`${base}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) }),
      );
    },
  };
}

/** Status, headers, text and (when it parses) JSON of a response. */
export async function readResult(res: Response): Promise<CallResult> {
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json, text };
}
