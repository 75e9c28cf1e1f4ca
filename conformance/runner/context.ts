import { ERROR_TABLE } from '../../simulator/contract/errors.ts';
import type { Exchange, KitClient, SendRequest } from '../client/http-client.ts';
import type { Redactor } from '../client/redact.ts';
import { followStream } from '../client/sse-follow.ts';
import type { SseSession } from '../client/sse-stream.ts';
import type { TokenKeeper } from '../client/token-keeper.ts';
import type { CallOptions, CheckContext, CheckDef, Expectations, ProfileName, TargetInfo } from './check.ts';
import type { DeploymentProfile } from './deployment-profile.ts';
import type { ExchangeLog } from './exchange-log.ts';
import { CheckFailure, type FailureInput, SkipCheck } from './failure.ts';

/** What every check of one run shares. */
export interface RunState {
  runId: string;
  client: KitClient;
  redactor: Redactor;
  target: TargetInfo;
  token?: string;
  /** Renews a token from the client credentials grant (the token above is then only the first one). */
  tokens?: TokenKeeper;
  /** Admin token of the deployment's sandbox control plane, if given. */
  adminToken?: string;
  profile: ProfileName;
  deployment: DeploymentProfile;
  memo: Map<string, Promise<unknown>>;
  labels: { next: number };
  /** Run when every check has finished, in reverse order of registration. */
  cleanups: (() => Promise<void> | void)[];
  /** Every exchange any check made, for the response rules. */
  exchanges: ExchangeLog;
  /** What the kit had to cut, assume or work around: shown once in every report. */
  notices?: string[];
  /** Profile fields the deployment declared itself. */
  declaredFields?: readonly string[];
  /** Seed of the generated probes (0 when the caller gave none). */
  seed?: number;
  /** Fires when the run stops early (--max-failures): the checks' requests and waits end at it. */
  stop?: AbortSignal;
}

/** The signal of a run that never stops early. */
const NEVER = new AbortController().signal;
/** How often one call is sent again with a renewed token after 401s (each token renewed at most once). */
const RENEWALS_PER_CALL = 3;

const errorCodeOf = (ex: Exchange) => {
  const err = (ex.json as { error?: { code?: unknown } } | undefined)?.error;
  return typeof err?.code === 'string' ? err.code : undefined;
};

function buildUrl(base: string, path: string, query?: Record<string, string>): string {
  const url = /^https?:\/\//.test(path) ? path : `${base}${path}`;
  if (!query || Object.keys(query).length === 0) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${new URLSearchParams(query).toString()}`;
}

/** A check's context plus the failures and notes it gathers. */
export function createCheckContext(def: CheckDef, run: RunState) {
  const failures: FailureInput[] = [];
  const notes: string[] = [];
  const judged: { asMust?: string } = {};

  const sessions: SseSession[] = [];

  function request(method: string, path: string, o: CallOptions, token = run.token): SendRequest {
    const base = o.base === 'alt' ? run.target.altBaseUrl : run.target.baseUrl;
    if (!base)
      throw new Error(`check ${def.name} calls the alternate base URL without declaring requires: ['alt-base-url']`);
    const headers: Record<string, string> = {};
    if ((o.credentials ?? 'token') === 'token') {
      if (!token) throw new Error(`check ${def.name} calls with a token without declaring requires: ['token']`);
      if (o.tokenIn !== 'query')
        headers[o.headerNames?.authorization ?? 'authorization'] = `${o.authScheme ?? 'Bearer'} ${token}`;
    }
    if (o.credentials === 'admin') {
      if (!run.adminToken)
        throw new Error(`check ${def.name} calls the control plane without declaring requires: ['control-plane']`);
      headers.authorization = `Bearer ${run.adminToken}`;
    }
    const tenant =
      o.tenant === undefined ? ((o.credentials ?? 'token') === 'token' ? run.target.tenant : undefined) : o.tenant;
    if (tenant) headers[o.headerNames?.tenant ?? 'x-service-tenant'] = tenant;
    let body: string | undefined;
    if (o.json !== undefined) {
      body = JSON.stringify(o.json);
      headers['content-type'] = 'application/json';
    } else if (o.body !== undefined) body = o.body;
    // Headers given by the check replace defaults of the same name in any letter case.
    for (const [name, value] of Object.entries(o.headers ?? {})) {
      for (const key of Object.keys(headers)) if (key.toLowerCase() === name.toLowerCase()) delete headers[key];
      headers[name] = value;
    }
    // The run's token as sent: renewed before each retry (a Retry-After wait may outlast a short token).
    const authName = o.headerNames?.authorization ?? 'authorization';
    const keeper = run.tokens;
    const refresh =
      keeper && token && headers[authName] === `${o.authScheme ?? 'Bearer'} ${token}`
        ? { refresh: async () => ({ [authName]: `${o.authScheme ?? 'Bearer'} ${await keeper.fresh()}` }) }
        : {};
    return {
      method,
      url: buildUrl(base, path, o.tokenIn === 'query' && token ? { ...o.query, access_token: token } : o.query),
      headers,
      ...refresh,
      ...(body !== undefined ? { body } : {}),
      ...(o.retry !== undefined ? { retry: o.retry } : {}),
      ...(o.readBody !== undefined ? { readBody: o.readBody } : {}),
      ...(o.defaultHeaders === false ? { omitDefaultHeaders: true } : {}),
      ...(run.stop ? { signal: run.stop } : {}),
    };
  }

  // The run's token, renewed when most of its lifetime has passed (client credentials only).
  const tokenFor = async (o: CallOptions) =>
    (o.credentials ?? 'token') === 'token' && run.tokens ? run.tokens.fresh() : run.token;
  /** Whether a request carries the run's token as it was built (a check may send its own instead). */
  const carries = (req: SendRequest, token: string | undefined) =>
    token !== undefined && Object.values(req.headers ?? {}).includes(`Bearer ${token}`);

  /**
   * Sends a request built with the run's token; a 401 to a token that may have run out sends it again with a
   * new one (each answer stays on record). A token of a second or two can run out again in flight on a loaded
   * machine: at most RENEWALS_PER_CALL times, each one a token the keeper judged old enough to have expired.
   */
  async function sendRenewing<T>(
    token: string | undefined,
    build: (token: string | undefined) => SendRequest,
    send: (req: SendRequest) => Promise<{ value: T; ex: Exchange; discard?: () => Promise<void> }>,
  ): Promise<T> {
    let req = build(token);
    let answer = await send(req);
    let used = token;
    for (
      let n = 0;
      n < RENEWALS_PER_CALL && answer.ex.status === 401 && run.tokens && used && carries(req, used);
      n++
    ) {
      const renewed = await run.tokens.afterUnauthorized(used);
      if (!renewed || renewed === used) break;
      await answer.discard?.();
      req = build(renewed);
      answer = await send(req);
      used = renewed;
    }
    return answer.value;
  }

  const call = async (method: string, path: string, o: CallOptions = {}): Promise<Exchange> => {
    const token = await tokenFor(o);
    return sendRenewing(
      token,
      (t) => request(method, path, o, t),
      async (r) => {
        const ex = await run.client.send(r);
        run.exchanges.record(def.name, ex);
        return { value: ex, ex };
      },
    );
  };

  async function open(path: string, o: CallOptions): Promise<SseSession> {
    const session = await sendRenewing(
      await tokenFor(o),
      (t) => request('GET', path, o, t),
      async (r) => {
        const opened = await run.client.openStream(r);
        run.exchanges.record(def.name, opened.ex);
        return { value: opened, ex: opened.ex, discard: () => opened.close() };
      },
    );
    sessions.push(session);
    return session;
  }

  async function stream(path: string, o: CallOptions = {}): Promise<SseSession> {
    const session = await open(path, o);
    if (!o.follow || !session.isStream) return session;
    // Reconnects resume after the last id read, by Last-Event-ID alone (a cursor beside it would ask the
    // deployment to choose between them); with nothing read yet, as the first connection asked.
    return followStream(session, (lastId) => {
      if (lastId === undefined) return open(path, o);
      const headers = Object.fromEntries(
        Object.entries(o.headers ?? {}).filter(([name]) => name.toLowerCase() !== 'last-event-id'),
      );
      const { cursor: _cursor, ...query } = o.query ?? {};
      return open(path, { ...o, query, headers: { ...headers, 'Last-Event-ID': lastId } });
    });
  }

  const that = (condition: boolean, failure: FailureInput) => {
    if (!condition) failures.push(failure);
    return condition;
  };
  const expect: Expectations = {
    that,
    status(ex, expected, rule) {
      const list: readonly number[] = typeof expected === 'number' ? [expected] : expected;
      return that(list.includes(ex.status), { expected: rule, exchange: ex });
    },
    errorCode(ex, code, rule) {
      const ok =
        ex.status === ERROR_TABLE[code].status &&
        (ex.json as { ok?: unknown } | undefined)?.ok === false &&
        errorCodeOf(ex) === code;
      return that(ok, { expected: rule, exchange: ex });
    },
  };

  const ctx: CheckContext = {
    target: run.target,
    profile: run.profile,
    deployment: run.deployment,
    runId: run.runId,
    seed: run.seed ?? 0,
    signal: run.stop ?? NEVER,
    call,
    stream,
    atRunEnd: (cleanup) => void run.cleanups.push(cleanup),
    label: (kind) => `ncs-conformance-${run.runId}-${kind}-${++run.labels.next}`,
    shared<T>(key: string, make: () => Promise<T>) {
      let p = run.memo.get(key) as Promise<T> | undefined;
      if (!p) {
        p = make();
        run.memo.set(key, p);
      }
      return p;
    },
    sharedIfMade: <T>(key: string) => run.memo.get(key) as Promise<T> | undefined,
    expect,
    fail: (failure) => void failures.push(failure),
    require(condition, failure) {
      if (!condition) throw new CheckFailure(failure);
    },
    skip(reason) {
      throw new SkipCheck(reason);
    },
    note: (text) => void notes.push(text),
    notice: (text) => void run.notices?.push(text),
    declared: (field) => run.declaredFields?.includes(field) ?? false,
    judgeAsMust(reason) {
      judged.asMust = reason;
    },
    secrets: () => run.redactor.secrets().map((s) => s.value),
    async renewToken() {
      if (!run.tokens) return false;
      await run.tokens.renew();
      return true;
    },
    redact: (value, env) => run.redactor.add(value, env, { leakChecked: false }),
    exchanges: () => run.exchanges.all(),
  };
  /** Closes every stream the check left open. */
  const closeStreams = () => Promise.all(sessions.map((s) => s.close())).then(() => undefined);
  return { ctx, failures, notes, closeStreams, judged };
}
