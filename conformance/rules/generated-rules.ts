import { dataProblems } from './contract-shapes.ts';
import { echoPairs, echoProblems } from './echo-rules.ts';
import { carriesEnvelope } from './exchange-scope.ts';
import type { ResponseRule } from './response-rules.ts';

const envelope = (json: unknown) =>
  (typeof json === 'object' && json !== null ? json : {}) as { data?: unknown; meta?: Record<string, unknown> };

const header = (headers: Record<string, string>, name: string) =>
  Object.entries(headers).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];

function sentJson(body: string | undefined): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(body ?? '') as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** MUST (Resources and their fields): a 200 answer's data has every field the contract's resource gives it, of its type and range. */
export const contractDataRule: ResponseRule = (ex, { route }) => {
  if (ex.status !== 200 || !carriesEnvelope(ex, route)) return undefined;
  const data = envelope(ex.json).data;
  return data === undefined ? undefined : dataProblems(route, data);
};

/** MUST (Endpoints, resources): the fields a creation or check sends come back unchanged in its 200 answer. */
export const requestEchoRule: ResponseRule = (ex, { route }) => {
  if (ex.status !== 200) return undefined;
  const pairs = echoPairs(route);
  const sent = pairs.length ? sentJson(ex.requestBody) : undefined;
  if (!sent) return undefined;
  const problems = echoProblems(pairs, sent, envelope(ex.json).data);
  return problems.length ? problems.join('; ') : undefined;
};

/**
 * MUST (Meta: idempotencyKey is "the key used for the call", replayed "true when the response comes from
 * an earlier identical operation"): on an idempotent route's success a replay sets the key; on any answer
 * it is the key sent, and a call sent without a key (which uses none) reports none; no conflict, no
 * missing-key refusal and no keyless call is marked replayed.
 */
export const idempotencyKeyEchoRule: ResponseRule = (ex, { route }) => {
  const sent = header(ex.requestHeaders, 'idempotency-key');
  const { meta = {}, error } = envelope(ex.json) as { meta?: Record<string, unknown>; error?: { code?: unknown } };
  // "replayed: true when the response comes from an earlier identical operation": a conflict is a call
  // whose content differs, a missing key names no earlier operation.
  if (meta.replayed === true && (error?.code === 'idempotency_conflict' || error?.code === 'idempotency_required'))
    return `meta.replayed true on a ${String(error.code)} answer, which comes from no earlier identical operation`;
  if (sent === undefined) {
    if (meta.replayed === true) return 'meta.replayed true on a call sent without an Idempotency-Key';
    // A call sent without a key used none, whatever it answers: a key the answer issues (POST
    // /idempotency-keys) or one made up for the call is not "the key used for the call".
    return meta.idempotencyKey !== undefined
      ? `meta.idempotencyKey ${JSON.stringify(meta.idempotencyKey)} on a ${route.method} sent without an Idempotency-Key`
      : undefined;
  }
  if (route.idempotent && ex.status === 200 && meta.replayed === true && meta.idempotencyKey === undefined)
    return `a replay (meta.replayed true) without meta.idempotencyKey; the key sent was ${sent}`;
  if (meta.idempotencyKey !== undefined && meta.idempotencyKey !== sent)
    return `meta.idempotencyKey ${JSON.stringify(meta.idempotencyKey)}, the key sent was ${JSON.stringify(sent)}`;
  return undefined;
};
