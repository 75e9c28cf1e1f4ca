// The JSON bodies of the run's calls that the deployment answered 200, held against the request body schema
// openapi.json documents for the operation: a description narrower than what the service takes (a uniqueness,
// an enumeration of some connectors, an id format the catalog's own ids do not have) turns clients away from
// calls that work. Only bodies the service demonstrably takes are judged: every field one the interface lists
// for the request, each value within the contract's limits or one the deployment's own answers carry.

import { operations } from '../../generated/request-fields.ts';
import type { OpenApiLike } from './openapi.ts';
import { deref, operationLocation, pointer } from './openapi.ts';
import { contractAccepts } from './openapi-limits.ts';
import { type RoutedExchange, servedLeaves } from './openapi-served-judge.ts';
import { describeAjvErrors, type ResponseSchemas } from './response-schemas.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** One documented request body schema that refused a body the deployment answered 200: its first exchange and how many. */
export interface BodyOffender {
  label: string;
  at: string;
  body: Json;
  errors: string;
  ex: RoutedExchange['ex'];
  count: number;
}

/** Where an operation's documented JSON request body schema stands, as a JSON pointer. */
export function requestBodySchemaAt(doc: OpenApiLike, method: string, path: string): string | undefined {
  const loc = operationLocation(doc, method, path);
  if (!loc) return undefined;
  const body = deref(doc, loc.op.requestBody, [...loc.at, 'requestBody']);
  const content = isObject(body.value) && isObject(body.value.content) ? body.value.content : {};
  const type = Object.keys(content).find((t) => /^application\/(?:[\w.+-]+\+)?json/.test(t));
  if (!type || !isObject(content[type]) || content[type].schema === undefined) return undefined;
  return pointer(...body.at, 'content', type, 'schema');
}

const parsed = (text: string | undefined): Json | undefined => {
  try {
    const v = text ? JSON.parse(text) : undefined;
    return isObject(v) ? v : undefined;
  } catch {
    return undefined;
  }
};

/**
 * The documented request body schemas that refuse a body the deployment answered 200 with.
 * @example judgeServedBodies(doc, schemas, answered).offenders[0]?.label // 'POST /api/public/v1/connections'
 */
export function judgeServedBodies(doc: OpenApiLike, schemas: ResponseSchemas, answered: readonly RoutedExchange[]) {
  const leaves = servedLeaves(answered);
  const bodyFields = new Map(operations().map((o) => [o.route, o.fields.filter((f) => f.in === 'body')]));
  const offenders = new Map<string, BodyOffender>();
  let judged = 0;
  const unjudged = new Set<string>();
  for (const { route, ex } of answered) {
    const fields = bodyFields.get(route);
    const body = parsed(ex.requestBody);
    if (!fields?.length || !body) continue;
    // A body without a field the interface requires says nothing of the schema: the document rightly requires it.
    if (!fields.every((f) => !f.required || f.name in body)) continue;
    const demonstrated = Object.entries(body).every(([name, value]) => {
      const field = fields.find((f) => f.name === name);
      if (!field) return false; // a field of the kit's own (an unknown-field probe): the document may refuse it
      if (field.type.type !== 'other' && contractAccepts(field.type, value)) return true;
      const values = Array.isArray(value) ? value : [value];
      return values.every((v) => (typeof v === 'string' || typeof v === 'number') && leaves.has(String(v)));
    });
    const at = demonstrated ? requestBodySchemaAt(doc, route.method, route.path) : undefined;
    const validate = at ? schemas.at(at) : undefined;
    if (!at || !validate) continue;
    // A schema that refers to itself without end (a hostile or broken document) overflows the validator:
    // nothing to judge there (openapi.schemas-valid reports the document).
    let valid: boolean;
    try {
      valid = validate(body) === true;
    } catch {
      unjudged.add(`${route.method} ${route.path}`);
      continue;
    }
    judged++;
    if (valid) continue;
    const label = `${route.method} ${route.path}`;
    const seen = offenders.get(label);
    if (seen) seen.count++;
    else offenders.set(label, { label, at, body, errors: describeAjvErrors(validate), ex, count: 1 });
  }
  return { offenders: [...offenders.values()], judged, unjudged: [...unjudged] };
}
