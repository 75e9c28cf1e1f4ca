import { createHash } from 'node:crypto';
import { ROUTE_BY_ID } from '../../simulator/contract/route-table.ts';
import { BASE_PATH, SUPPORTED_VERSIONS } from '../../simulator/contract/versions.ts';

/**
 * Behavioural legal choices of an alternative target (alt-choices.ts, `behaviour`): the order of
 * refusals, strictness about fields the interface does not list, what a refused call does to its key,
 * what a replay repeats, error texts, extra headers, at-least-once deliveries. The interface fixes none
 * of them; the simulator's choices are the defaults (absent `behaviour`).
 */
export interface BehaviourChoices {
  /** A creation without a key AND with an unsuitable body: 400 invalid_request (the simulator: 428 first). */
  bodyBeforeKey: boolean;
  /** Unknown body fields on POST /capabilities and /idempotency-keys, unknown query parameters on lists: 400. */
  strictUnknown: boolean;
  /** A key whose creation was refused stays bound to it: the same body gets the refusal again, another body 409. */
  refusalsKeepKey: boolean;
  /** A replay repeats the original meta.requestId and meta.at ("the same response again"). */
  replayOriginalMeta: boolean;
  /** Other error messages, no hint, a detail on every error. */
  ownErrorTexts: boolean;
  /** Headers the interface does not name: X-RateLimit-Reset, RateLimit-Policy, CORS on public endpoints, Deprecation for 2026-06-12. */
  extraHeaders: boolean;
  /** Every webhook delivery is sent twice (at least once; the retry policy is not shown). */
  duplicateDeliveries: boolean;
}

type Json = Record<string, unknown>;
export interface Call {
  method: string;
  path: string;
  search: URLSearchParams;
  headers: Record<string, string>;
  body: unknown;
}
export interface Answer {
  status: number;
  json: Json;
}

const CREATE = `${BASE_PATH}/connections`;
const STRICT_BODIES = new Map(
  ['checkCapability', 'createIdempotencyKey'].map((id) => {
    const r = ROUTE_BY_ID.get(id);
    return [r?.path ?? id, r?.body] as const;
  }),
);
const LIST_QUERIES = new Map(
  ['listProviders', 'listConnectors', 'listCapabilities', 'listConnections'].map((id) => {
    const r = ROUTE_BY_ID.get(id);
    return [r?.path ?? id, new Set(Object.keys(r?.query?.shape ?? {}))] as const;
  }),
);
const CREATE_BODY = ROUTE_BY_ID.get('createConnection')?.body;

const fieldsOf = (schema: unknown): string[] => {
  const shape = (schema as { shape?: Json } | undefined)?.shape;
  return shape ? Object.keys(shape) : [];
};
const hash = (body: unknown) =>
  createHash('sha256')
    .update(JSON.stringify(body ?? null))
    .digest('hex');
const refusal = (json: Json, code: string, message: string): Answer => ({
  status: 400,
  json: { ok: false, error: { code, message }, meta: json.meta },
});

/** The state one alternative target keeps for its behaviour (per target, so runs against it agree). */
export function behaviourState() {
  return { refused: new Map<string, { hash: string; answer: Answer }>(), firstMeta: new Map<string, unknown>() };
}
type State = ReturnType<typeof behaviourState>;
const keyOf = (call: Call) => `${call.headers['x-service-tenant']} ${call.headers['idempotency-key']}`;

/** Answered before the simulator is asked: a key bound to an earlier refusal. */
export function answerBefore(b: BehaviourChoices | undefined, s: State, call: Call): Answer | undefined {
  if (!b?.refusalsKeepKey || call.method !== 'POST' || call.path !== CREATE || !call.headers['idempotency-key'])
    return undefined;
  const earlier = s.refused.get(keyOf(call));
  if (!earlier) return undefined;
  if (earlier.hash === hash(call.body)) {
    const meta = { ...(earlier.answer.json.meta as Json), replayed: true };
    return { status: earlier.answer.status, json: { ...earlier.answer.json, meta } };
  }
  const conflict = refusal(earlier.answer.json, 'idempotency_conflict', 'This key was used for other content.');
  return { ...conflict, status: 409 };
}

/** The simulator's answer as this deployment gives it. */
export function answerAfter(b: BehaviourChoices | undefined, s: State, call: Call, a: Answer): Answer {
  if (!b) return a;
  const code = (a.json.error as { code?: string } | undefined)?.code;
  const body = call.body && typeof call.body === 'object' ? (call.body as Json) : undefined;
  if (
    b.bodyBeforeKey &&
    call.path === CREATE &&
    code === 'idempotency_required' &&
    !CREATE_BODY?.safeParse(body).success
  )
    a = refusal(a.json, 'invalid_request', 'The body does not fit the published description.');
  if (b.strictUnknown && a.status === 200) {
    const allowed =
      STRICT_BODIES.has(call.path) && call.method === 'POST' ? fieldsOf(STRICT_BODIES.get(call.path)) : null;
    const unknownField = allowed && body && Object.keys(body).find((k) => !allowed.includes(k));
    const query = call.method === 'GET' ? LIST_QUERIES.get(call.path) : undefined;
    const unknownParam = query && [...call.search.keys()].find((k) => !query.has(k));
    if (unknownField || unknownParam)
      a = refusal(a.json, 'invalid_request', `Unknown ${unknownField ? 'field' : 'parameter'}: not accepted here.`);
  }
  const key = call.headers['idempotency-key'];
  if (
    b.refusalsKeepKey &&
    call.path === CREATE &&
    key &&
    [400, 404, 409].includes(a.status) &&
    code !== 'idempotency_conflict'
  )
    s.refused.set(keyOf(call), { hash: hash(call.body), answer: a });
  if (b.replayOriginalMeta && key && call.method === 'POST' && a.status === 200) {
    const meta = a.json.meta as Json;
    const first = s.firstMeta.get(`${call.path} ${keyOf(call)}`) as Json | undefined;
    if (meta.replayed === true && first) a.json.meta = { ...meta, requestId: first.requestId, at: first.at };
    else if (!first) s.firstMeta.set(`${call.path} ${keyOf(call)}`, meta);
  }
  if (b.ownErrorTexts && a.json.ok === false) {
    const error = a.json.error as Json;
    a.json.error = {
      code: error.code,
      message: `Refused (${String(error.code)}).`,
      detail: 'See the published description.',
    };
  }
  return a;
}

/** Headers this deployment adds that the interface does not name. */
export function extraHeaders(b: BehaviourChoices | undefined, call: Call, status: number): Record<string, string> {
  if (!b?.extraHeaders) return {};
  const out: Record<string, string> = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };
  if (status !== 401 && call.headers.authorization) {
    out['x-ratelimit-reset'] = String(Math.ceil(Date.now() / 1000) + 60);
    out['ratelimit-policy'] = '"default";q=5000;w=60';
  }
  const isPublic =
    call.path === BASE_PATH || call.path === `${BASE_PATH}/openapi.json` || call.path === `${BASE_PATH}/stream`;
  if (isPublic) out['access-control-allow-origin'] = '*';
  if (call.headers['service-version'] === SUPPORTED_VERSIONS[1]) {
    out.deprecation = 'true';
    out.sunset = 'Thu, 31 Dec 2026 23:59:59 GMT';
  }
  return out;
}
