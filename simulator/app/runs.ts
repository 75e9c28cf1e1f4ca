// Per-run isolation: `POST /_sandbox/runs` (or `ncs sandbox run create --ttl <s>`) makes a namespace of
// its own, seeded from the fixtures, with its own tenants' data, clock, faults, rate limits and
// receivers. Calls carrying the run's token (or its admin token) are answered by the run; everything
// of the run is gone after its TTL. With a shared store the run lives under its own key prefix, and any
// replica opens it on the first call that carries its token.

import { hash, timingSafeEqual } from 'node:crypto';
import type { z } from 'zod';
import { CURRENT_VERSION } from '../contract/versions.ts';
import { RUN_TTL, RunCreateBody, type RunInfoData } from '../control/run-route.ts';
import { ApiError } from '../core/api-error.ts';
import type { PlainRequest, PlainResponse } from '../core/types.ts';
import { newId } from '../lib/ids.ts';
import { bearerToken } from '../middleware/auth.ts';
import { readJsonBody } from '../middleware/json-body.ts';
import { newRequestId } from '../middleware/request-id.ts';
import { askedVersion } from '../middleware/version.ts';
import type { MaybePromise } from '../state/ports/maybe-promise.ts';
import { type Core, withoutBody } from './create-core.ts';
import type { SharedStoreParts as SharedStore } from './shared-store-parts.ts';

export const RUNS_PATH = '/_sandbox/runs';
// The route's schema and TTL bounds live with the control plane's routes (its OpenAPI document).
export { RUN_TTL };

/** How long after its expiry a run is closed (its streams are told their token expired first). */
const RUN_END_GRACE_MS = 1000;
/** Runs one replica creates and holds at once: each is a whole sandbox in memory. */
export const MAX_RUNS = 500;

/** What creating a run answers (like the ready file: where to reach it and a token to do it); its schema is RunInfoData. */
export type RunInfo = z.infer<typeof RunInfoData>;

/** What a run needs of its sandbox (a Sandbox from createSandbox is one). */
interface RunSandbox {
  core: Core;
  adminToken: string;
  ready: Promise<void>;
  state: { close(): Promise<void> };
  issueToken(clientId?: string, ttlSeconds?: number): { token: string; tenant: string };
}

interface OpenRun {
  sandbox: RunSandbox;
  store?: SharedStore;
  expiresAt: number;
  timer: NodeJS.Timeout;
}

const digest = (token: string) => hash('sha256', token, 'base64url');

/**
 * Runs of one sandbox and the routing of calls to them.
 * @example const runs = createRuns({ open: async (id) => ({ sandbox: createSandbox({ inspector: false }) }) });
 */
export function createRuns(deps: {
  /** Builds the run's sandbox (on a namespace of the shared store when there is one). */
  open(runId: string): Promise<{ sandbox: RunSandbox; store?: SharedStore }>;
  shared?: SharedStore;
  /** Runs held at once (default MAX_RUNS). */
  max?: number;
}) {
  const runs = new Map<string, OpenRun>();
  const max = deps.max ?? MAX_RUNS;
  let creating = 0;
  const byToken = new Map<string, string>();
  const opening = new Map<string, Promise<OpenRun | undefined>>();
  const key = (h: string) => `${deps.shared?.engine.prefix}run-token:${h}`;

  async function start(runId: string, expiresAt: number, tokens: string[]): Promise<OpenRun> {
    const { sandbox, store } = await deps.open(runId);
    await sandbox.ready;
    // A run ends a moment after its token expires: the token's expiry closes the run's open streams
    // (a final `stream.closed`, token_expired) on the run's own timeline, which closing the run stops.
    // Ended at the same instant, the run could stop that timeline first, and its streams stayed open,
    // holding the closed run, for as long as their clients kept them.
    const timer = setTimeout(
      () => void end(runId).catch(() => {}),
      Math.max(0, expiresAt - Date.now()) + RUN_END_GRACE_MS,
    );
    timer.unref();
    const run: OpenRun = { sandbox, expiresAt, timer, ...(store ? { store } : {}) };
    runs.set(runId, run);
    for (const h of tokens) byToken.set(h, runId);
    return run;
  }

  /** A run just opened here: its token, and (shared) the keys other replicas find it by. */
  async function announce(run: OpenRun, runId: string, expiresAt: number, ttlSeconds: number): Promise<RunInfo> {
    const { token, tenant } = run.sandbox.issueToken(undefined, ttlSeconds);
    const adminToken = run.sandbox.adminToken;
    const hashes = [digest(token), digest(adminToken)];
    for (const h of hashes) byToken.set(h, runId);
    if (deps.shared) {
      await run.store?.log.drain(); // the run's token is in its log before anyone is told it
      const value = JSON.stringify({ runId, expiresAt, hashes });
      for (const h of hashes) await deps.shared.engine.command(['SET', key(h), value, 'PXAT', expiresAt]);
      // Gone after its TTL even when no replica holds the run open then (the end() below removes the rest).
      const log = `${run.store?.engine.prefix}log`;
      await deps.shared.engine.command(['PEXPIREAT', log, expiresAt + 60_000]);
    }
    return { runId, token, tenant, adminToken, expiresAt: new Date(expiresAt).toISOString() };
  }

  async function end(runId: string) {
    const run = runs.get(runId);
    if (!run) return;
    runs.delete(runId);
    clearTimeout(run.timer);
    for (const [h, id] of byToken) if (id === runId) byToken.delete(h);
    const prefix = run.store?.engine.prefix;
    // Closed first: its last writes (the log drained at close, an activation due) land before the sweep below,
    // not after it (a replica under load left a run's keys in Redis for good that way). The sweep goes over the
    // sandbox's own connection, which outlives the run's. Every replica sweeps after its own close, so the
    // last one to end finds every key any of them wrote.
    await run.sandbox.state.close();
    const engine = deps.shared?.engine;
    if (engine && prefix) {
      let cursor = '0';
      do {
        const [next, keys] = await engine
          .command<[string, string[]]>(['SCAN', cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000])
          .catch(() => ['0', []] as [string, string[]]);
        cursor = next;
        if (keys.length) await engine.command(['UNLINK', ...keys]).catch(() => {});
      } while (cursor !== '0');
    }
  }

  return {
    /** Creates a run, or answers undefined when `max` runs are open or being created here. */
    async create(ttlSeconds: number): Promise<RunInfo | undefined> {
      // Counted before the first await: concurrent creations each see the places already promised.
      if (runs.size + creating >= max) return undefined;
      const runId = newId('run', 9);
      const expiresAt = Date.now() + ttlSeconds * 1000;
      creating++;
      let run: OpenRun;
      try {
        run = await start(runId, expiresAt, []);
      } finally {
        creating--; // counted in `runs` from here on
      }
      return announce(run, runId, expiresAt, ttlSeconds);
    },
    max,
    /** The run answering this request (by its bearer token), opening it here when another replica made it. */
    async coreFor(req: PlainRequest, isMainToken: (token: string) => MaybePromise<boolean>): Promise<Core | undefined> {
      if (runs.size === 0 && !deps.shared) return undefined;
      const token = bearerToken(req.headers.authorization);
      if (!token) return undefined;
      const h = digest(token);
      const local = byToken.get(h);
      // Past its expiresAt a run takes no new call (it stays open a grace second for its streams only): its
      // token, issued once the run had started, would otherwise outlive what the run's answer said.
      const open = local ? runs.get(local) : undefined;
      if (open) return open.expiresAt > Date.now() ? open.sandbox.core : undefined;
      if (!deps.shared || (await isMainToken(token))) return undefined;
      const raw = await deps.shared.engine.command<string | null>(['GET', key(h)]);
      if (!raw) return undefined;
      const { runId, expiresAt, hashes } = JSON.parse(raw) as { runId: string; expiresAt: number; hashes: string[] };
      if (expiresAt <= Date.now()) return undefined;
      let pending = opening.get(runId);
      if (!pending) {
        pending = start(runId, expiresAt, hashes).finally(() => opening.delete(runId));
        opening.set(runId, pending);
      }
      return (await pending)?.sandbox.core;
    },
    /** Runs open here, and those being created. */
    count: () => runs.size + creating,
    /** Whether a call may belong to a run (false: no run here and none on other replicas). */
    mayRoute: () => runs.size > 0 || deps.shared !== undefined,
    async close() {
      await Promise.all([...runs.keys()].map((id) => end(id)));
    },
  };
}
export type Runs = ReturnType<typeof createRuns>;

/**
 * Compares a presented token with a secret in constant time (by their SHA-256 digests, which have one
 * length), like the control plane's admin check; `===` stops at the first differing character.
 * @example isSameSecret(bearerToken(req.headers.authorization), adminToken)
 */
export function isSameSecret(given: string | undefined, secret: string): boolean {
  if (given === undefined) return false;
  return timingSafeEqual(hash('sha256', given, 'buffer'), hash('sha256', secret, 'buffer'));
}

/**
 * The sandbox's front: `POST /_sandbox/runs` (main admin token) creates a run; a call with a run's
 * token goes to that run; everything else to the sandbox itself.
 */
export function withRuns(
  core: Core,
  runs: Runs,
  adminToken: string,
  isMainToken: (token: string) => MaybePromise<boolean>,
): Core {
  const json = (status: number, body: unknown): PlainResponse => ({
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
    body: JSON.stringify(body),
  });
  async function route(req: PlainRequest) {
    const run = await runs.coreFor(req, isMainToken).catch(() => undefined);
    return (run ?? core).handle(req);
  }
  return {
    ...core,
    handle(req) {
      if (req.path === RUNS_PATH) return createRun(req);
      // No run anywhere: straight through, without an extra promise on the default path.
      return runs.mayRoute() ? route(req) : core.handle(req);
    },
  };

  async function createRun(req: PlainRequest): Promise<PlainResponse> {
    // Answered in front of the pipeline, so its checks are the pipeline's own, in its order (version,
    // method, credentials, body): this route accepts nothing another route would refuse.
    try {
      askedVersion(req.headers['service-version']);
    } catch (err) {
      return refusal(err);
    }
    if (req.method !== 'POST') {
      const res = core.reject('not_found', 'This control-plane path answers POST.', {
        headers: { allow: 'POST' },
        hint: 'POST /_sandbox/runs {"ttlSeconds": <s>} with the admin token creates a run.',
      });
      return req.method === 'HEAD' ? withoutBody(res) : res;
    }
    if (!isSameSecret(bearerToken(req.headers.authorization), adminToken))
      return core.reject(
        'unauthorized',
        'Creating a run needs the admin token of the sandbox (Authorization: Bearer).',
      );
    let body: unknown = {};
    try {
      // No body at all: the defaults. A body dropped for its size is refused, not taken for none.
      if (req.body?.length || req.bodyTooLarge) body = readJsonBody(req);
    } catch (err) {
      return refusal(err);
    }
    const parsed = RunCreateBody.safeParse(body);
    if (!parsed.success)
      return core.reject(
        'invalid_request',
        `ttlSeconds must be a whole number from 1 to ${RUN_TTL.max} (${parsed.error.issues[0]?.message ?? 'invalid'}).`,
      );
    const ttl = parsed.data.ttlSeconds ?? RUN_TTL.default;
    let info: RunInfo | undefined;
    try {
      info = await runs.create(ttl);
    } catch {
      return core.handle(req); // the store is away: the sandbox answers 500 internal itself
    }
    if (!info)
      return core.reject(
        'rate_limited',
        `This sandbox holds ${runs.max} runs at once; wait until one ends (its TTL) or give runs shorter TTLs.`,
      );
    return json(200, {
      ok: true,
      data: info,
      meta: { requestId: newRequestId(), version: CURRENT_VERSION, at: new Date().toISOString() },
    });
  }

  /** The failure envelope of a refusal thrown by a shared check (its own detail and hint). */
  function refusal(err: unknown): PlainResponse {
    // The shared checks throw nothing else; were one to, the caller still gets an envelope, not a reset.
    if (!(err instanceof ApiError)) return core.reject('invalid_request', 'The request could not be read.');
    return core.reject(err.code, err.detail ?? err.message, { hint: err.hint });
  }
}
