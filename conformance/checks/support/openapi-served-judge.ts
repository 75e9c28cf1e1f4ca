// The run's calls held against what openapi.json documents for them: the values sent for documented header
// and query parameters on calls the deployment answered 200, and the values of documented response headers
// in its answers. Pure functions of the document, its compiled schemas and the exchanges.
import type { RouteDef } from '../../../simulator/contract/route-def.ts';
import { CURRENT_VERSION } from '../../../simulator/contract/versions.ts';
import type { Exchange } from '../../client/exchange.ts';
import { operations, type RequestField } from '../../generated/request-fields.ts';
import type { OpenApiLike } from './openapi.ts';
import { contractAccepts } from './openapi-limits.ts';
import {
  documentedHeaders,
  documentedParameters,
  headerValue,
  sentValue,
  styleCandidates,
} from './openapi-parameters.ts';
import { describeAjvErrors, type ResponseSchemas } from './response-schemas.ts';

/** An exchange of the run with the interface route it addressed. */
export interface RoutedExchange {
  route: RouteDef;
  ex: Exchange;
}

/** One documented parameter or header whose schema refused what was served: its first exchange and how many. */
export interface ServedOffender {
  label: string;
  ex: Exchange;
  value: string | string[];
  errors: string;
  at: string;
  count: number;
}

/** OpenAPI 3.1 §4.8.12.1: header parameters of these names are ignored (the kit's credentials among them). */
const IGNORED_HEADERS = /^(accept|content-type|authorization)$/i;

/** Whether an exchange was answered under the current version (no Service-Version, or the current one). */
export const currentVersion = (ex: Exchange) => {
  const version = headerValue(ex.requestHeaders, 'service-version');
  return version === undefined || version === CURRENT_VERSION;
};

/** Every text and number the deployment's JSON answers carry: values of its own (categories, ids). */
export function servedLeaves(answers: readonly { ex: Exchange }[]): Set<string> {
  const out = new Set<string>();
  const walk = (v: unknown, depth: number) => {
    if (depth > 12 || out.size > 50_000) return;
    if (typeof v === 'string' || typeof v === 'number') out.add(String(v));
    else if (Array.isArray(v)) for (const x of v) walk(x, depth + 1);
    else if (v && typeof v === 'object') for (const x of Object.values(v)) walk(x, depth + 1);
  };
  for (const { ex } of answers) walk(ex.json, 0);
  return out;
}

/**
 * Whether a value sent and answered 200 is one the service demonstrably serves, so that a schema refusing it
 * is narrower than the service: the run's tenants, the current version, a value within the contract's limits
 * (Idempotency-Key, cursor), or one the deployment's own answers carry (a category, a provider's id). A value
 * the kit made up for a free string (a filter nothing has) is not: its format is the deployment's to describe.
 */
function served(
  tenants: readonly string[],
  field: RequestField | undefined,
  p: { name: string; in: string },
  value: string,
  leaves: Set<string>,
): boolean {
  const name = p.name.toLowerCase();
  if (p.in === 'header' && name === 'x-service-tenant') return tenants.includes(value);
  if (p.in === 'header' && name === 'service-version') return value === CURRENT_VERSION;
  const t = field?.type;
  const limited = t && (t.type !== 'string' || t.min !== undefined || t.max !== undefined || t.pattern !== undefined);
  if (t && limited && t.type !== 'other') {
    const typed = t.type === 'integer' && /^\d+$/.test(value) ? Number(value) : value;
    if (contractAccepts(t, typed)) return true;
  }
  return leaves.has(value);
}

function offenderMap() {
  const map = new Map<string, ServedOffender>();
  return {
    add(o: Omit<ServedOffender, 'count'>) {
      const seen = map.get(o.label);
      if (seen) seen.count++;
      else map.set(o.label, { ...o, count: 1 });
    },
    all: () => [...map.values()],
  };
}

/**
 * The documented header and query parameters whose schema refuses a value the deployment answered 200 with
 * (`answered`: the run's 200 answers of interface routes, under the current version).
 * @example judgeServedParameters(doc, schemas, answered, ['tenant-a']).offenders[0]?.label // 'GET /api/public/v1/providers header x-service-tenant'
 */
export function judgeServedParameters(
  doc: OpenApiLike,
  schemas: ResponseSchemas,
  answered: readonly RoutedExchange[],
  tenants: readonly string[],
) {
  const leaves = servedLeaves(answered);
  const fields = new Map(operations().map((o) => [o.route, o.fields]));
  const offenders = offenderMap();
  let judged = 0;
  let unjudged = 0;
  const examples = new Set<string>();
  for (const { route, ex } of answered) {
    for (const p of documentedParameters(doc, route.method, route.path) ?? []) {
      if ((p.in !== 'header' && p.in !== 'query') || !p.schemaAt) continue;
      if (p.in === 'header' && IGNORED_HEADERS.test(p.name)) continue;
      const value = sentValue(ex, p);
      if (value === undefined) continue;
      const field = fields
        .get(route)
        ?.find(
          (f) =>
            f.in === p.in && (p.in === 'header' ? f.name.toLowerCase() === p.name.toLowerCase() : f.name === p.name),
        );
      // A single-valued parameter sent twice (requests.other-forms-as-route) is a form the document need not
      // describe: a deployment tolerating it says nothing of the schema's breadth.
      if (Array.isArray(value) && p.in === 'query' && field?.type.type !== 'array') continue;
      if (!(Array.isArray(value) ? value : [value]).every((v) => served(tenants, field, p, v, leaves))) {
        unjudged++;
        if (examples.size < 4) examples.add(`${p.in} ${p.name} ${JSON.stringify(value)}`);
        continue;
      }
      const validate = schemas.at(p.schemaAt);
      if (!validate) continue;
      judged++;
      if (styleCandidates(value).some((c) => validate(c))) continue;
      validate(value); // the errors of the value as sent, not of the last reading tried
      const label = `${route.method} ${route.path} ${p.in} ${p.name}`;
      offenders.add({ label, ex, value, errors: describeAjvErrors(validate), at: p.schemaAt });
    }
  }
  return { offenders: offenders.all(), judged, unjudged, examples: [...examples] };
}

/**
 * The documented response headers (for the answer's status, its range, else `default`) whose schema refuses
 * the value an answer carries.
 * @example judgeServedHeaders(doc, schemas, exchanges).offenders[0]?.label // 'GET /api/public/v1/providers 429 Retry-After'
 */
export function judgeServedHeaders(doc: OpenApiLike, schemas: ResponseSchemas, exchanges: readonly RoutedExchange[]) {
  const offenders = offenderMap();
  let judged = 0;
  for (const { route, ex } of exchanges) {
    if (!ex.status) continue;
    for (const h of documentedHeaders(doc, route.method, route.path, ex.status)) {
      const value = headerValue(ex.headers, h.name);
      if (value === undefined || !h.schemaAt) continue;
      const validate = schemas.at(h.schemaAt);
      if (!validate) continue;
      judged++;
      if (styleCandidates(value).some((c) => validate(c))) continue;
      validate(value); // the errors of the value as sent, not of the last reading tried
      const label = `${route.method} ${route.path} ${ex.status} ${h.name}`;
      offenders.add({ label, ex, value, errors: describeAjvErrors(validate), at: h.schemaAt });
    }
  }
  return { offenders: offenders.all(), judged };
}
