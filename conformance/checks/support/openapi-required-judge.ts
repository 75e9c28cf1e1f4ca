// What the interface requires of a request, held against what a deployment's openapi.json marks
// required: parameters by their `required` flag, the JSON body with Ajv (the contract's smallest valid
// body, and that body short of one required field). Derived from the contract's routes and zod schemas.
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { RouteDef } from '../../../simulator/contract/route-def.ts';
import { operations, type RequestField } from '../../generated/request-fields.ts';
import { KIT_AJV_OPTIONS } from '../../rules/ajv-options.ts';
import { interfaceRoutes } from '../../rules/interface-routes.ts';
import { deref, type OpenApiLike, operationLocation, pointer } from './openapi.ts';
import { interfaceSubset } from './openapi-subset.ts';
import { breakInPlaceCycles } from './schema-cycles.ts';

/** One request value the document requires where the interface does not, or the other way round. */
export interface RequiredFinding {
  route: RouteDef;
  /** `query cursor`, `header Idempotency-Key`, `body environment`. */
  value: string;
  /** narrower: the document requires what the interface leaves optional or does not list; wider: the opposite. */
  kind: 'narrower' | 'wider';
  at: string;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);
const ID = 'urn:ncs-conformance:target-openapi-required';

/** Headers an interface operation may require on its own: credentials, tenant, key, version (not shown). */
function mayRequireHeader(route: RouteDef, name: string): boolean {
  const n = name.toLowerCase();
  if (n === 'service-version') return true; // whether it is mandatory: not shown
  if (route.auth && (n === 'authorization' || n === 'x-service-tenant')) return true;
  return route.idempotent === true && n === 'idempotency-key';
}

/** The operation's parameters, the operation's own first (OpenAPI 3.1 §4.8.10), each with where it stands. */
function parametersOf(doc: OpenApiLike, route: RouteDef) {
  const loc = operationLocation(doc, route.method, route.path);
  if (!loc) return undefined;
  const listed = (owner: unknown, at: string[]) =>
    (Array.isArray((owner as { parameters?: unknown })?.parameters)
      ? (owner as { parameters: unknown[] }).parameters
      : []
    ).map((p, i) => deref(doc, p, [...at, 'parameters', String(i)]));
  const seen = new Set<string>();
  const out: { name: string; in: string; required: boolean; at: string }[] = [];
  for (const p of [...listed(loc.op, loc.at), ...listed(loc.item, loc.itemAt)]) {
    if (!isObject(p.value) || typeof p.value.name !== 'string' || typeof p.value.in !== 'string') continue;
    const key = `${p.value.in} ${p.value.in === 'header' ? p.value.name.toLowerCase() : p.value.name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ name: p.value.name, in: p.value.in, required: p.value.required === true, at: pointer(...p.at) });
  }
  return { loc, params: out };
}

const sameField = (f: RequestField, p: { name: string; in: string }) =>
  f.in === p.in && (f.in === 'header' ? f.name.toLowerCase() === p.name.toLowerCase() : f.name === p.name);

/** The first value the contract accepts for a field (its boundary cases' first valid one, or a plain string). */
type FirstValid = (route: RouteDef, field: RequestField) => unknown;

/**
 * Every interface operation the interface describes (fieldsNotShown left out), judged: documented required
 * parameters and body fields against the contract's.
 * @example judgeRequired(doc, firstValid).filter((f) => f.kind === 'narrower') // the MUST failures
 */
export function judgeRequired(
  doc: OpenApiLike,
  firstValid: FirstValid,
  notJudged?: (why: string) => void,
): RequiredFinding[] {
  const findings: RequiredFinding[] = [];
  const ajv = new Ajv2020({ ...KIT_AJV_OPTIONS, strict: false, allErrors: true, validateFormats: false });
  // Ajv keeps the copy it is given and compiles from it on demand: cycles broken in it below are seen.
  const own = interfaceSubset(doc);
  ajv.addSchema(own as object, ID);
  const fieldsOf = new Map(operations().map((o) => [o.route, o.fields]));
  for (const route of interfaceRoutes().filter((r) => !r.fieldsNotShown)) {
    const documented = parametersOf(doc, route);
    if (!documented) continue;
    const fields = fieldsOf.get(route) ?? [];
    for (const p of documented.params) {
      if (p.in === 'path' || p.in === 'cookie') continue;
      // OpenAPI 3.1 §4.8.12.1: header parameters named Accept, Content-Type or Authorization are ignored.
      if (p.in === 'header' && /^(accept|content-type|authorization)$/i.test(p.name)) continue;
      const field = fields.find((f) => sameField(f, p));
      if (p.required && !field?.required && !(p.in === 'header' && mayRequireHeader(route, p.name)))
        findings.push({ route, value: `${p.in} ${p.name}`, kind: 'narrower', at: p.at });
      // "Required on every authenticated call: x-service-tenant" (documented as a parameter, it is required).
      const tenant = p.in === 'header' && route.auth && p.name.toLowerCase() === 'x-service-tenant';
      if (!p.required && (field?.required || tenant))
        findings.push({ route, value: `${p.in} ${p.name}`, kind: 'wider', at: p.at });
    }
    const body = bodySchema(doc, documented.loc);
    const bodyFields = fields.filter((f) => f.in === 'body');
    if (!body || bodyFields.length === 0) continue;
    const cut = breakInPlaceCycles(own, body.at);
    if (cut > 0)
      notJudged?.(
        `${route.method} ${route.path} body: ${cut} $ref cycle(s) under ${body.at} refer back without descending; read as no constraint`,
      );
    let validate: ReturnType<typeof ajv.getSchema>;
    try {
      validate = ajv.getSchema(`${ID}${body.at}`);
    } catch {
      continue; // a schema that does not compile is discovery.openapi-valid's to report
    }
    if (!validate) continue;
    const smallest: Json = {};
    for (const f of bodyFields) if (f.required) smallest[f.name] = firstValid(route, f);
    // A cycle under a property (met only when the value has it) still overflows the stack: not judged either.
    try {
      const missing = (value: Json) =>
        validate(value) ? [] : (validate.errors ?? []).filter((e) => e.keyword === 'required' && e.instancePath === '');
      for (const e of missing(smallest))
        findings.push({
          route,
          value: `body ${String((e.params as { missingProperty?: unknown }).missingProperty)}`,
          kind: 'narrower',
          at: body.at,
        });
      for (const f of bodyFields.filter((x) => x.required)) {
        const { [f.name]: _left, ...short } = smallest;
        if (validate(short)) findings.push({ route, value: `body ${f.name}`, kind: 'wider', at: body.at });
      }
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
      notJudged?.(
        `${route.method} ${route.path} body: validating against ${body.at} did not end (${e.message}); not judged`,
      );
    }
  }
  findings.push(...optionalBodies(doc));
  return findings;
}

/** Whether a contract body has a field that must be sent (an object whose shape holds a non-optional key). */
function bodyRequired(body: unknown): boolean {
  const shape = (body as { def?: { shape?: Record<string, { def?: { type?: string } }> } } | undefined)?.def?.shape;
  return Object.values(shape ?? {}).some((f) => !['optional', 'default'].includes(f.def?.type ?? ''));
}

/**
 * The interface operations whose body has required fields (POST /capabilities, /connections,
 * /idempotency-keys, /webhooks) documented with a request body that is not `required: true`: OpenAPI 3.1
 * §4.8.13 defaults `required` to false, so such a description says the call may be sent without a body.
 * @example optionalBodies(doc) // [{ value: 'requestBody', kind: 'wider', at: '#/paths/…/requestBody', … }]
 */
export function optionalBodies(doc: OpenApiLike): RequiredFinding[] {
  const out: RequiredFinding[] = [];
  // The other way: an operation the interface gives no body ("No parameters") documented with a required one.
  for (const route of interfaceRoutes().filter((r) => !r.body)) {
    const loc = operationLocation(doc, route.method, route.path);
    const body =
      loc && loc.op.requestBody !== undefined ? deref(doc, loc.op.requestBody, [...loc.at, 'requestBody']) : undefined;
    if (body && isObject(body.value) && body.value.required === true)
      out.push({
        route,
        value: 'a request body (the interface gives it none)',
        kind: 'narrower',
        at: pointer(...body.at),
      });
  }
  for (const route of interfaceRoutes().filter((r) => bodyRequired(r.body))) {
    const loc = operationLocation(doc, route.method, route.path);
    if (!loc || loc.op.requestBody === undefined) continue; // an undocumented body is openapi.request-body-json's
    const body = deref(doc, loc.op.requestBody, [...loc.at, 'requestBody']);
    if (!isObject(body.value) || body.value.required === true) continue;
    const flag = 'required' in body.value ? `required: ${JSON.stringify(body.value.required)}` : 'no required (false)';
    out.push({ route, value: `the request body (${flag})`, kind: 'wider', at: pointer(...body.at) });
  }
  return out;
}

/** Where the documented JSON request body schema stands, if there is one. */
function bodySchema(doc: OpenApiLike, loc: NonNullable<ReturnType<typeof operationLocation>>) {
  const body = deref(doc, loc.op.requestBody, [...loc.at, 'requestBody']);
  const content = isObject(body.value) && isObject(body.value.content) ? body.value.content : {};
  const type = Object.keys(content).find((t) => /^application\/(?:[\w.+-]+\+)?json/.test(t));
  if (!type || !isObject(content[type]) || content[type].schema === undefined) return undefined;
  return { at: pointer(...body.at, 'content', type, 'schema') };
}
