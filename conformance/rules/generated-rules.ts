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

/** MUST (Meta, POST /connections): meta.idempotencyKey is the key sent; a replay (meta.replayed true) sets it. */
export const idempotencyKeyEchoRule: ResponseRule = (ex, { route }) => {
  if (!route.idempotent || ex.status !== 200) return undefined;
  const sent = header(ex.requestHeaders, 'idempotency-key');
  const meta = envelope(ex.json).meta ?? {};
  if (sent === undefined) return undefined;
  if (meta.replayed === true && meta.idempotencyKey === undefined)
    return `a replay (meta.replayed true) without meta.idempotencyKey; the key sent was ${sent}`;
  if (meta.idempotencyKey !== undefined && meta.idempotencyKey !== sent)
    return `meta.idempotencyKey ${JSON.stringify(meta.idempotencyKey)}, the key sent was ${JSON.stringify(sent)}`;
  return undefined;
};
