// Where a deployment's openapi.json holds Schema Objects (OpenAPI 3.1 §4.8.24): in components.schemas and in
// the parameters, headers, request bodies and responses of every path item, webhook, callback and component.
// Walked by the document's structure, not by key name, so an example holding a key "schema" is no schema.
import { HTTP_METHODS } from './openapi.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);
const isRef = (v: unknown) => isObject(v) && typeof v.$ref === 'string';

/** A Schema Object and the pointer parts where it stands. */
export interface SchemaAt {
  schema: unknown;
  at: string[];
}

/**
 * Every Schema Object the document places directly (references are judged where they point), at most
 * `limit` of them: a hostile document may hold hundreds of thousands; `cut` says whether some were left out.
 * @example schemaObjects(doc).schemas.map((s) => s.at.join('/')) // ['components/schemas/Connection', …]
 */
export function schemaObjects(doc: unknown, limit = 20_000): { schemas: SchemaAt[]; cut: boolean } {
  const schemas: SchemaAt[] = [];
  let cut = false;
  // Path items met more than once (callbacks may reach the same object) are walked once.
  const seen = new Set<object>();
  const add = (schema: unknown, at: string[]) => {
    if (schema === undefined || isRef(schema)) return;
    if (schemas.length >= limit) cut = true;
    else schemas.push({ schema, at });
  };
  const entries = (v: unknown) => (isObject(v) ? Object.entries(v) : []);
  const content = (v: unknown, at: string[]) => {
    for (const [type, media] of entries(v)) if (isObject(media)) add(media.schema, [...at, type, 'schema']);
  };
  const parameter = (p: unknown, at: string[]) => {
    if (!isObject(p) || isRef(p)) return;
    add(p.schema, [...at, 'schema']);
    content(p.content, [...at, 'content']);
  };
  const headers = (v: unknown, at: string[]) => {
    for (const [name, h] of entries(v)) parameter(h, [...at, name]);
  };
  const parameters = (list: unknown, at: string[]) => {
    if (Array.isArray(list)) for (const [i, p] of list.entries()) parameter(p, [...at, String(i)]);
  };
  const requestBody = (b: unknown, at: string[]) => {
    if (isObject(b) && !isRef(b)) content(b.content, [...at, 'content']);
  };
  const response = (r: unknown, at: string[]) => {
    if (!isObject(r) || isRef(r)) return;
    headers(r.headers, [...at, 'headers']);
    content(r.content, [...at, 'content']);
  };
  const callbacks = (v: unknown, at: string[]) => {
    for (const [name, cb] of entries(v))
      if (!isRef(cb)) for (const [expr, item] of entries(cb)) pathItem(item, [...at, name, expr]);
  };
  function pathItem(item: unknown, at: string[]) {
    if (!isObject(item) || isRef(item) || seen.has(item) || cut) return;
    seen.add(item);
    parameters(item.parameters, [...at, 'parameters']);
    for (const m of HTTP_METHODS) {
      const op = item[m];
      if (!isObject(op)) continue;
      parameters(op.parameters, [...at, m, 'parameters']);
      requestBody(op.requestBody, [...at, m, 'requestBody']);
      for (const [status, r] of entries(op.responses)) response(r, [...at, m, 'responses', status]);
      callbacks(op.callbacks, [...at, m, 'callbacks']);
    }
  }
  if (!isObject(doc)) return { schemas, cut };
  const components = isObject(doc.components) ? doc.components : {};
  for (const [name, s] of entries(components.schemas)) add(s, ['components', 'schemas', name]);
  for (const [name, p] of entries(components.parameters)) parameter(p, ['components', 'parameters', name]);
  headers(components.headers, ['components', 'headers']);
  for (const [name, b] of entries(components.requestBodies)) requestBody(b, ['components', 'requestBodies', name]);
  for (const [name, r] of entries(components.responses)) response(r, ['components', 'responses', name]);
  callbacks(components.callbacks, ['components', 'callbacks']);
  for (const [name, item] of entries(components.pathItems)) pathItem(item, ['components', 'pathItems', name]);
  for (const [path, item] of entries(doc.paths)) pathItem(item, ['paths', path]);
  for (const [name, item] of entries(doc.webhooks)) pathItem(item, ['webhooks', name]);
  return { schemas, cut };
}
