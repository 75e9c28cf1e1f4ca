import { isDeepStrictEqual } from 'node:util';
import { CURRENT_VERSION, isSupportedVersion } from '../../simulator/contract/versions.ts';
import type { Exchange } from '../client/http-client.ts';
import type { ResponseRule } from './response-rules.ts';

/**
 * Rules that hold an answer to the call that asked for it, or the run's answers to each other: the
 * tenant a list names is the one asked for, a filter restricts what is listed, a call has its own
 * request identifier, a key issued is a new key, a 429 says that no call is left, a decision gives a
 * reason, the self-description reports the version its meta reports.
 */
type Json = Record<string, unknown>;
const dataOf = (ex: Exchange) => (ex.json as { data?: Json } | undefined)?.data;
const metaOf = (ex: Exchange) => (ex.json as { meta?: Json } | undefined)?.meta;
const header = (headers: Record<string, string>, name: string) =>
  Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
const where = (ex: Exchange) => `${ex.method} ${new URL(ex.url).pathname}${new URL(ex.url).search}`;

/**
 * MUST (GET /connections: "data: tenant (string)"; Authentication: x-service-tenant is "the tenant for
 * which the call applies"): an answer that names a tenant in data.tenant names the tenant of the call.
 * @example tenantEchoRule(otherTenantList, info) // 'data.tenant harbour-bistro, the call was for tenant lakeside-cafes'
 */
export const tenantEchoRule: ResponseRule = (ex) => {
  const tenant = dataOf(ex)?.tenant;
  const asked = header(ex.requestHeaders, 'x-service-tenant');
  if (ex.status !== 200 || typeof tenant !== 'string' || asked === undefined || tenant === asked) return undefined;
  return `data.tenant ${tenant}, the call was for tenant ${asked}`;
};

/** The fields of an entry a query parameter can restrict: the same name, or its plural listing values. */
const fieldsFor = (name: string) => [name, `${name}s`, name.replace(/y$/, 'ies')];

/**
 * MUST (Endpoints: only the endpoints marked "yes + key" take a key; Authentication: the key is sent "on
 * modifying calls"): a call to an endpoint marked "yes" (a capability check, a key's issue, the reads)
 * is never refused 428 idempotency_required for want of a key, whatever it names (a capability that
 * itself needs keys is checked without one).
 * @example keyOnlyWhereMarkedRule(capabilityCheck428, info) // 'POST /api/public/v1/capabilities is marked …'
 */
export const keyOnlyWhereMarkedRule: ResponseRule = (ex, { route }) => {
  if (route.idempotent || !route.auth || ex.status !== 428) return undefined;
  const code = (ex.json as { error?: { code?: unknown } } | undefined)?.error?.code;
  return code === 'idempotency_required'
    ? `${where(ex)} is marked "yes" (no key) in the endpoint table, yet answered 428 idempotency_required`
    : undefined;
};

/**
 * MUST (GET /providers: "category restricts to one category"; GET /connectors: capability, providerId,
 * category): every entry a filtered list answers matches every query parameter the contract declares
 * for the route, whatever the value (one no entry has gives an empty list, not the whole one). A
 * parameter no entry has a field for (a page size, a cursor) is not a filter and is not judged.
 * @example filterRule(listExchange, info) // 'category no-such: data.providers[0] has category pos'
 */
export const filterRule: ResponseRule = (ex, { route }) => {
  if (route.method !== 'GET' || ex.status !== 200) return undefined;
  const data = dataOf(ex);
  const lists = Object.entries(data ?? {}).filter(([, v]) => Array.isArray(v)) as [string, unknown[]][];
  const [list] = lists;
  if (lists.length !== 1 || !list) return undefined;
  const [name, entries] = list;
  const declared = Object.keys(route.query?.shape ?? {});
  for (const [param, value] of new URL(ex.url).searchParams)
    for (const [i, raw] of entries.entries()) {
      const entry = (raw ?? {}) as Json;
      const field = fieldsFor(param).find((f) => f in entry);
      if (field === undefined || !declared.includes(param)) continue;
      const held = entry[field];
      // A value matched regardless of letter case is the same value (an identifier's form is not shown);
      // another value (a prefix, another category) is not.
      const same = (x: unknown) => x === value || (typeof x === 'string' && x.toLowerCase() === value.toLowerCase());
      const matches = Array.isArray(held) ? held.some(same) : same(held);
      if (!matches) return `${param} ${value}: data.${name}[${i}] has ${field} ${JSON.stringify(held)}`;
    }
  return undefined;
};

/**
 * SHOULD (Limits: "When exceeded, the service answers 429 with a wait time"; X-RateLimit-Remaining is
 * "calls left in the window"): a 429 asks for a wait of at least one second and, where it reports
 * X-RateLimit-Remaining, reports none left. SHOULD: several limits may apply (per access, tenant and
 * environment) and the headers may report another one than the one exceeded.
 * @example rateLimitedConsistencyRule(limited, info) // 'a 429 with Retry-After 0: no wait'
 */
export const rateLimitedConsistencyRule: ResponseRule = (ex) => rateLimitedProblem(ex);

/** What is inconsistent in a 429 answer, wherever it was provoked (see rateLimitedConsistencyRule). */
export function rateLimitedProblem(ex: Exchange): string | undefined {
  if (ex.status !== 429) return undefined;
  const wait = header(ex.headers, 'retry-after')?.trim();
  if (wait !== undefined && /^\d+$/.test(wait) && Number(wait) < 1)
    return `a 429 with Retry-After ${wait}: no wait, where the client is to "respect the wait time"`;
  const left = header(ex.headers, 'x-ratelimit-remaining')?.trim();
  if (left !== undefined && /^\d+$/.test(left) && Number(left) > 0)
    return `a 429 rate_limited reporting X-RateLimit-Remaining ${left}: calls left in the window`;
  return undefined;
}

/**
 * SHOULD (What the service does: "a capability check returns a decision (allowed or not) with a
 * reason"): a decision's reason says something (not empty, not only spaces). SHOULD: the contract types
 * it as a string, and what the reason says is not shown.
 * @example decisionReasonRule(check, info) // 'data.decision.reason is ""'
 */
export const decisionReasonRule: ResponseRule = (ex) => {
  const decision = dataOf(ex)?.decision as Json | undefined;
  if (ex.status !== 200 || !decision || typeof decision.reason !== 'string') return undefined;
  return decision.reason.trim() === '' ? `data.decision.reason is ${JSON.stringify(decision.reason)}` : undefined;
};

/**
 * SHOULD (GET /api/public/v1: "data: … version (string)"; Versioning: "Responses report it in
 * meta.version"): a self-description whose data.version is a version identifier (a date) reports the
 * version its own meta reports, or the current one (a self-description asked for under an earlier version
 * may still describe the service as it stands). A service build number is not judged.
 * @example selfDescriptionVersionRule(selfDescription, info) // 'data.version 2026-06-12, meta.version 2026-07-01'
 */
export const selfDescriptionVersionRule: ResponseRule = (ex, { route }) => {
  if (route.id !== 'describeService' || ex.status !== 200) return undefined;
  const version = dataOf(ex)?.version;
  const reported = metaOf(ex)?.version;
  if (!Array.isArray(dataOf(ex)?.routes) || typeof version !== 'string' || typeof reported !== 'string')
    return undefined;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(version) && !isSupportedVersion(version)) return undefined;
  return version === reported || version === CURRENT_VERSION
    ? undefined
    : `data.version ${version}, meta.version ${reported}`;
};

/**
 * Answers of the run that repeat the meta.requestId of an earlier answer ("requestId: identifier of
 * this call"). `replays`: judge only replays (meta.replayed true: "the same response again" may be
 * read as the same meta too, so that is advisory), else every other answer.
 * @example requestIdRepeats(exchanges, false) // [{ problem: 'GET /…/providers repeats the requestId req_1 of GET /…', ex }]
 */
export function requestIdRepeats(
  exchanges: readonly Exchange[],
  replays: boolean,
): { problem: string; ex: Exchange }[] {
  const first = new Map<string, Exchange>();
  const problems: { problem: string; ex: Exchange }[] = [];
  for (const ex of new Set(exchanges)) {
    const id = metaOf(ex)?.requestId;
    if (typeof id !== 'string' || id === '') continue;
    const earlier = first.get(id);
    if (!earlier) {
      first.set(id, ex);
      continue;
    }
    if ((metaOf(ex)?.replayed === true) === replays)
      problems.push({ problem: `${where(ex)} repeats the requestId ${id} of ${where(earlier)}`, ex });
  }
  return problems;
}

/**
 * SHOULD (POST /idempotency-keys "generate an idempotency key"; Errors: "use a new key for each new
 * operation"): no key is issued twice in a run. SHOULD: the interface does not say in so many words
 * that each key is new, but a key handed out twice makes the second operation a replay of the first.
 * @example issuedKeyRepeats(exchanges) // [{ problem: 'key k-1 issued again (first for connection.create)', ex }]
 */
export function issuedKeyRepeats(exchanges: readonly Exchange[], isIssue: (ex: Exchange) => boolean) {
  const seen = new Map<string, Exchange>();
  const problems: { problem: string; ex: Exchange }[] = [];
  for (const ex of new Set(exchanges)) {
    const key = dataOf(ex)?.idempotencyKey;
    if (ex.status !== 200 || !isIssue(ex) || typeof key !== 'string') continue;
    const earlier = seen.get(key);
    if (earlier)
      problems.push({
        problem: `the key ${key} is issued again (first for operation ${String(dataOf(earlier)?.operation)})`,
        ex,
      });
    else seen.set(key, ex);
  }
  return problems;
}

/**
 * MUST (GET /connections: "connections of the tenant"; no paging is shown): the creations (200, not a
 * replay) whose connection a later list of the same tenant does not name.
 * @example unlistedCreations([creation], [{ id: 'con_2' }]) // [creation]: con_1 is not listed
 */
export function unlistedCreations(made: readonly Exchange[], listed: readonly { id?: unknown }[]): Exchange[] {
  const ids = new Set(listed.map((c) => c.id));
  return made.filter((ex) => !ids.has(dataOf(ex)?.id));
}

/** A connection without what may move by itself (state and nextStep follow transitions not shown). */
const settled = (c: Json | undefined) => {
  const { state: _s, nextStep: _n, updatedAt: _u, ...rest } = c ?? {};
  return rest;
};

/**
 * What is wrong with a creation sent again with its key and content (POST /connections: "the same key
 * with the same content returns the same response again"), else undefined: it answers 200 with
 * meta.replayed true and the same connection (but for its state, whose transitions are not shown).
 * @example laterReplayProblem(made, again) // 'answered 200, meta.replayed undefined, data.id con_2 (original con_1)'
 */
export function laterReplayProblem(made: Exchange, again: Exchange): string | undefined {
  if (
    again.status === 200 &&
    metaOf(again)?.replayed === true &&
    isDeepStrictEqual(settled(dataOf(again)), settled(dataOf(made)))
  )
    return undefined;
  return `answered ${again.status}, meta.replayed ${JSON.stringify(metaOf(again)?.replayed)}, data.id ${String(dataOf(again)?.id)} (original ${String(dataOf(made)?.id)})`;
}
