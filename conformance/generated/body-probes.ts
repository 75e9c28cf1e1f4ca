import { must } from '../runner/invariant.ts';
import { draw, matchingArb, textOf } from './draw.ts';
import type { Probe, ValidCall } from './probes.ts';
import type { Operation } from './request-fields.ts';

/**
 * Operations whose field list the interface calls the schema, with the sample's field sent in place of a
 * listed one: POST /connections ("A sample call for this endpoint sends a field restaurantId in place of
 * scopeLabel; the field list above is the schema."). The sample's body shape (the listed field left out,
 * the sample's field sent) is refused: a required field is missing. An unknown field sent besides every
 * listed one is the deployment's to refuse or to ignore (the interface names no unknown field as a cause
 * of invalid_request; ignoring them is many frameworks' default): no 5xx, and a refusal is invalid_request.
 */
export const FIELD_LIST_IS_SCHEMA: Readonly<Record<string, readonly { field: string; inPlaceOf: string }[]>> = {
  createConnection: [{ field: 'restaurantId', inPlaceOf: 'scopeLabel' }],
};

/**
 * The probes of a whole body rather than one value: the valid fields sent as an HTML form, the sample's
 * body shape where the interface names one, and an unknown field beside every listed one.
 * @example bodyProbes(op, 42, () => validCall, 'ncs-probe').map((p) => p.id) // ['body.form-encoded', 'sample.restaurantId', …]
 */
export function bodyProbes(
  op: Operation,
  seed: number,
  valid: (probeId: string) => ValidCall,
  marker: string,
): Probe[] {
  const probes: Probe[] = [];
  const where = `${op.route.method} ${op.route.path}`;
  // The valid body as an HTML form: the interface's bodies are JSON, so a deployment refuses it
  // (400 invalid_request: "request unsuitable") or, reading forms as an extension, accepts it; 415 is no
  // status the endpoints answer, and the Errors table pairs no code with it.
  if (op.route.body) {
    const call = valid('form-encoded');
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(call.body ?? {}))
      for (const item of Array.isArray(v) ? v : [v]) form.append(k, String(item));
    probes.push({
      id: 'body.form-encoded',
      field: 'body',
      expect: { accepted: 'either', code: 'invalid_request' },
      rule: `${where} with its valid fields as an HTML form (application/x-www-form-urlencoded, not JSON) answers 400 invalid_request, or is accepted (never 415 or a 5xx)`,
      // Its fields, for the refusal's bookkeeping (nothing written, values not echoed); sent as rawBody.
      ...(call.body ? { body: call.body } : {}),
      rawBody: form.toString(),
      query: call.query,
      headers: { ...call.headers, 'content-type': 'application/x-www-form-urlencoded' },
    });
  }
  // The valid body inside a JSON array: JSON, but not the object whose fields the table lists, so every
  // required field is missing ("required field missing, wrong data type"); read as its first item it would
  // create or decide something from a body the interface does not describe.
  if (op.route.body) {
    const call = valid('json-array');
    probes.push({
      id: 'body.json-array',
      field: 'body',
      expect: { accepted: false, code: 'invalid_request' },
      rule: `${where} with its valid fields inside a JSON array ([{…}]) answers 400 invalid_request`,
      ...(call.body ? { body: call.body } : {}),
      rawBody: JSON.stringify([call.body ?? {}]),
      query: call.query,
      headers: { ...call.headers, 'content-type': 'application/json' },
    });
  }
  const known = new Set(op.fields.filter((f) => f.in === 'body').map((f) => f.name));
  const samples = FIELD_LIST_IS_SCHEMA[op.route.id];
  if (samples) {
    for (const { field, inPlaceOf } of samples) {
      const call = valid(`sample-${field}`);
      const { [inPlaceOf]: _replaced, ...rest } = call.body ?? {};
      probes.push({
        id: `sample.${field}`,
        field,
        expect: { accepted: false, code: 'invalid_request' },
        rule: `${where} with the sample's field ${field} in place of ${inPlaceOf} answers 400 invalid_request (the field list is the schema: ${inPlaceOf} is required)`,
        body: { ...rest, [field]: textOf(8, seed, field, marker) },
        query: call.query,
        headers: call.headers,
      });
    }
  }
  // An unknown field besides every listed one, on every operation with a body (a capability check's
  // parser may choke on one where the creation's ignores it).
  if (known.size > 0) {
    const [drawn] = draw(
      matchingArb(/^[a-z][a-zA-Z]{3,12}$/).filter((s) => !known.has(s)),
      seed,
      `${op.route.id}.unknown`,
    );
    for (const name of [...(samples ?? []).map((x) => x.field), must(drawn, 'draw returns a value')]) {
      const call = valid(`unknown-${name}`);
      probes.push({
        id: `unknown.${name}`,
        field: name,
        expect: { accepted: 'either', code: 'invalid_request' },
        rule: `${where} with the unknown field ${name} besides every listed one is ignored or answers 400 invalid_request (never a 5xx)`,
        body: { ...call.body, [name]: textOf(8, seed, name, marker) },
        query: call.query,
        headers: call.headers,
      });
    }
  }
  return probes;
}
