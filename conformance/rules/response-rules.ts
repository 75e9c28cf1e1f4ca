import { z } from 'zod';
import { DateTime } from '../../simulator/contract/date-time.ts';
import { ERROR_TABLE } from '../../simulator/contract/errors.ts';
import { CURRENT_VERSION, isSupportedVersion, SUPPORTED_VERSIONS } from '../../simulator/contract/versions.ts';
import type { Exchange } from '../client/http-client.ts';
import { carriesEnvelope, type ExchangeInfo } from './exchange-scope.ts';
import { findLeaks, mayRevealAny, revealsSecret } from './leaks.ts';

/**
 * A rule every answer of an interface endpoint must keep, as a pure function: what is wrong with
 * this exchange, or undefined when it holds (or does not apply).
 * @example codeStatusRule(ex, info) // 'error.code invalid_request belongs with 400, answered 404'
 */
export type ResponseRule = (ex: Exchange, info: ExchangeInfo) => string | undefined;

const issues = (e: z.ZodError) =>
  e.issues
    .slice(0, 4)
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    .join('; ');

const SuccessEnvelope = z.object({
  ok: z.literal(true),
  data: z.record(z.string(), z.unknown()),
  meta: z.looseObject({}),
});
const FailureEnvelope = z.object({
  ok: z.literal(false),
  error: z.looseObject({
    code: z.string(),
    message: z.string(),
    detail: z.string().optional(),
    hint: z.string().optional(),
  }),
  meta: z.looseObject({}),
});
const MetaFields = z.looseObject({
  requestId: z.string().min(1),
  version: z.string().min(1),
  at: DateTime,
  idempotencyKey: z.string().optional(),
  replayed: z.boolean().optional(),
});

const body = (ex: Exchange) => ex.json as { ok?: unknown; error?: { code?: unknown }; meta?: unknown } | undefined;

/** MUST (Success envelope, Failure envelope, Endpoints): 200 + success envelope, errors the failure envelope. */
export const envelopeRule: ResponseRule = (ex, { route }) => {
  if (!carriesEnvelope(ex, route)) return undefined;
  if (ex.status >= 300 && ex.status < 400) return undefined;
  if (ex.status < 300 && ex.status !== 200) return `a success answered ${ex.status}; the interface's successes use 200`;
  if (ex.json === undefined) return `status ${ex.status} with a body that is not JSON: ${ex.text.slice(0, 60)}`;
  const parsed = (ex.status === 200 ? SuccessEnvelope : FailureEnvelope).safeParse(ex.json);
  return parsed.success
    ? undefined
    : `not the ${ex.status === 200 ? 'success' : 'failure'} envelope: ${issues(parsed.error)}`;
};

/**
 * MUST (Meta, Versioning): meta has requestId, version (a published version), at (date-time);
 * idempotencyKey and replayed well typed; a call that asked for the current version with Service-Version is answered as that version
 * (on either base URL; what an earlier or unknown value gets is not shown, so only the current one is judged).
 */
export const metaRule: ResponseRule = (ex, { route }) => {
  if (!carriesEnvelope(ex, route) || typeof ex.json !== 'object' || ex.json === null) return undefined;
  const parsed = MetaFields.safeParse(body(ex)?.meta);
  if (!parsed.success) return `meta: ${issues(parsed.error)}`;
  // "The current version identifier is 2026-07-01 … An earlier published version is 2026-06-12": an
  // answer reports one of those, whatever the caller asked for (an unknown value is not echoed back).
  return versionProblem(ex, parsed.data.version);
};

/**
 * meta.version is a published version, and the current one where the call asked for it with Service-Version
 * (what an earlier or unknown value gets is not shown: only the current one is judged).
 */
function versionProblem(ex: Exchange, version: string): string | undefined {
  if (!isSupportedVersion(version))
    return `meta.version ${JSON.stringify(version)} is not a published version (${SUPPORTED_VERSIONS.join(', ')})`;
  const asked = Object.entries(ex.requestHeaders).find(([k]) => k.toLowerCase() === 'service-version')?.[1];
  return asked === CURRENT_VERSION && version !== CURRENT_VERSION
    ? `asked for ${CURRENT_VERSION} with Service-Version, answered as meta.version ${version}`
    : undefined;
}

/**
 * What is wrong with a JSON success answer's envelope and meta, judged wherever it came from (an endpoint beyond
 * the interface's table: the delivery log, a redelivery, GET /info).
 * @example successEnvelopeProblem(ex) // 'not the success envelope: meta: Invalid input: expected object'
 */
export function successEnvelopeProblem(ex: Exchange): string | undefined {
  const envelope = SuccessEnvelope.safeParse(ex.json);
  if (!envelope.success) return `not the success envelope: ${issues(envelope.error)}`;
  const meta = MetaFields.safeParse(envelope.data.meta);
  return meta.success ? versionProblem(ex, meta.data.version) : `meta: ${issues(meta.error)}`;
}

/**
 * What is wrong with a provoked error answer's failure envelope and meta, judged wherever it was
 * provoked (a 429 or 500 armed on a path of the kit's own is outside the interface's routes the
 * response rules judge).
 * @example failureEnvelopeProblem(ex) // 'meta: requestId: Too small: expected string to have >=1 characters'
 */
export function failureEnvelopeProblem(ex: Exchange): string | undefined {
  const envelope = FailureEnvelope.safeParse(ex.json);
  if (!envelope.success) return `not the failure envelope: ${issues(envelope.error)}`;
  const meta = MetaFields.safeParse(envelope.data.meta);
  return meta.success ? versionProblem(ex, meta.data.version) : `meta: ${issues(meta.error)}`;
}

/** MUST (Errors): error.code is a code of the table, with the status the table pairs with it. */
export const codeStatusRule: ResponseRule = (ex) => {
  if (ex.status < 400) return undefined;
  const code = body(ex)?.error?.code;
  if (typeof code !== 'string') return undefined; // the envelope rule reports a missing code
  const row = ERROR_TABLE[code as keyof typeof ERROR_TABLE];
  if (!row) return `error.code ${code} is not a code of the Errors table (status ${ex.status})`;
  return row.status === ex.status ? undefined : `error.code ${code} belongs with ${row.status}, answered ${ex.status}`;
};

/** MUST (Success/Failure envelope): a JSON body is served with a JSON content type. */
export const jsonContentTypeRule: ResponseRule = (ex, { route }) => {
  if (!carriesEnvelope(ex, route) || typeof ex.json !== 'object' || ex.json === null) return undefined;
  const type = ex.headers['content-type'] ?? '(none)';
  return /^application\/(?:[\w.+-]+\+)?json\b/i.test(type) ? undefined : `a JSON envelope served as ${type}`;
};

/**
 * SHOULD (Meta: requestId is "the identifier of this call, quoted for support queries"): a header that names
 * the call's request id (X-Request-Id, Request-Id) names the same one as meta.requestId, so logs and
 * support queries match. The interface names no such header: one that is absent is no fault.
 */
export const requestIdHeaderRule: ResponseRule = (ex) => requestIdHeaderProblem(ex);

/** The request-id header names are read as: what they hold must be meta.requestId. */
const REQUEST_ID_HEADERS = ['x-request-id', 'request-id'];

/**
 * Why an answer's request-id header disagrees with its meta.requestId, if it does.
 * @example requestIdHeaderProblem(ex) // 'X-Request-Id req_2, meta.requestId req_1'
 */
export function requestIdHeaderProblem(ex: Exchange): string | undefined {
  const id = (body(ex)?.meta as { requestId?: unknown } | undefined)?.requestId;
  if (typeof id !== 'string') return undefined;
  for (const name of REQUEST_ID_HEADERS) {
    const sent = ex.headers[name];
    if (sent !== undefined && sent !== id) return `${name} ${sent}, meta.requestId ${id}`;
  }
  return undefined;
}

/** A credential's field name, and a value written like one (no blanks or placeholders, letters and digits). */
const CREDENTIAL_NAME =
  /^(?:client[-_]?secret|password|passphrase|api[-_]?key|private[-_]?key|access[-_]?token|refresh[-_]?token)$/i;
const CREDENTIAL_VALUE = /^(?=.*\d)(?=.*[a-z])[^\s<>{}*…]{12,}$/i;

/**
 * A credential in the public self-description (its free-form authentication object showing an example client's
 * secret): "access credentials stay in the partner's backend", and no fixed key belongs in what anyone reads.
 * @example publicCredential({ authentication: { exampleClient: { clientSecret: 'sk_live_4f9a…' } } }) // 'data.authentication.exampleClient.clientSecret'
 */
export function publicCredential(value: unknown, at = 'data', depth = 0): string | undefined {
  if (depth > 6 || !value || typeof value !== 'object') return undefined;
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'string' && CREDENTIAL_NAME.test(k) && CREDENTIAL_VALUE.test(v)) return `${at}.${k}`;
    const inner = publicCredential(v, Array.isArray(value) ? `${at}[${k}]` : `${at}.${k}`, depth + 1);
    if (inner) return inner;
  }
  return undefined;
}

/** MUST (Errors): no stack trace or internal path in errors; no token or secret in any answer. */
export const noLeaksRule: ResponseRule = (ex, { secrets, route }) => {
  if (route.id === 'describeService' && ex.status === 200) {
    const where = publicCredential((ex.json as { data?: unknown } | undefined)?.data);
    if (where) return `the public self-description shows a credential at ${where}`;
  }
  const headers = Object.values(ex.headers).join('\n');
  const leaks = findLeaks(`${headers}\n${ex.status >= 400 ? ex.text : ''}`, [...secrets]);
  if (
    ex.status < 400 &&
    mayRevealAny(
      ex.text,
      secrets.map((s) => s.value),
    )
  )
    for (const s of secrets) if (revealsSecret(ex.text, s.value) && !leaks.includes(s.what)) leaks.push(s.what);
  return leaks.length > 0 ? `the answer reveals ${leaks.join(', ')}` : undefined;
};

/** MUST (Limits): authenticated answers carry X-RateLimit-Limit and X-RateLimit-Remaining. */
export const rateLimitHeadersRule: ResponseRule = (ex, { route, authenticated }) => {
  if (!route.auth || !authenticated || ex.status === 401 || ex.status === 403) return undefined;
  const missing = ['x-ratelimit-limit', 'x-ratelimit-remaining'].filter((h) => ex.headers[h] === undefined);
  return missing.length > 0 ? `an authenticated ${ex.status} answer without ${missing.join(', ')}` : undefined;
};
