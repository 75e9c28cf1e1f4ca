import { BASE_PATH } from '../../simulator/contract/versions.ts';

/**
 * openapi.json as a generator that composes its schemas writes it (ALT_G, alt-further.ts `openApiComposed`):
 * every error response a `$ref` to `components/responses`, every success envelope an `allOf` of a shared
 * envelope and the operation's data, every path item a `$ref` to `components/pathItems`, optional meta and error fields `type: [..., "null"]` (OpenAPI 3.1's
 * nullable), and `servers` naming a templated host with a variable and the base path, paths relative to
 * it. The same document as the simulator's: any reader of OpenAPI 3.1 must read both alike.
 */

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

const SUCCESS_ENVELOPE = {
  type: 'object',
  properties: { ok: { type: 'boolean', const: true }, meta: { $ref: '#/components/schemas/Meta' } },
  required: ['ok', 'meta'],
};

/** A 200 schema `{ok, data, meta}` as `allOf` of the shared envelope and its data. */
function composed(schema: unknown): unknown {
  if (!isObject(schema) || !isObject(schema.properties) || schema.properties.data === undefined) return schema;
  return {
    allOf: [
      { $ref: '#/components/schemas/SuccessEnvelope' },
      { type: 'object', properties: { data: schema.properties.data }, required: ['data'] },
    ],
  };
}

/** The optional fields of `schema` that are strings or booleans, made nullable. */
function nullable(schema: unknown): void {
  if (!isObject(schema) || !isObject(schema.properties)) return;
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  for (const [name, field] of Object.entries(schema.properties))
    if (!required.has(name) && isObject(field) && typeof field.type === 'string' && field.type !== 'object')
      field.type = [field.type, 'null'];
}

/** The document as this deployment publishes it. */
export function composedOpenApi(doc: Json): Json {
  const components = (isObject(doc.components) ? doc.components : {}) as Json;
  const schemas = (isObject(components.schemas) ? components.schemas : {}) as Json;
  const responses: Json = isObject(components.responses) ? components.responses : {};
  const byText = new Map<string, string>();
  const paths: Json = {};
  const pathItems: Json = {};
  for (const [path, item] of Object.entries(isObject(doc.paths) ? doc.paths : {})) {
    for (const op of Object.values(isObject(item) ? item : {})) {
      if (!isObject(op) || !isObject(op.responses)) continue;
      for (const [status, response] of Object.entries(op.responses)) {
        if (!isObject(response)) continue;
        if (Number(status) >= 400) {
          const text = JSON.stringify(response);
          let name = byText.get(text);
          if (!name) {
            name = `Error${status}${byText.size ? `_${byText.size}` : ''}`;
            byText.set(text, name);
            responses[name] = response;
          }
          op.responses[status] = { $ref: `#/components/responses/${name}` };
        } else if (status === '200' && isObject(response.content)) {
          const json = response.content['application/json'];
          if (isObject(json)) json.schema = composed(json.schema);
        }
      }
    }
    const relative = path === BASE_PATH ? '/' : path.startsWith(`${BASE_PATH}/`) ? path.slice(BASE_PATH.length) : path;
    // Every path item in components.pathItems (OpenAPI 3.1), the paths object holding references to them.
    const name = relative.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '') || 'root';
    pathItems[name] = item;
    paths[relative] = { $ref: `#/components/pathItems/${name}` };
  }
  nullable(schemas.Meta);
  for (const r of Object.values(responses)) {
    const schema = isObject(r) && isObject(r.content) ? (r.content['application/json'] as Json | undefined) : undefined;
    const error =
      isObject(schema?.schema) && isObject(schema.schema.properties) ? schema.schema.properties.error : undefined;
    nullable(error);
  }
  return {
    ...doc,
    servers: [
      {
        url: 'https://{env}.ncs.example/api/public/v1',
        description: 'the environments',
        variables: { env: { default: 'sandbox', enum: ['sandbox', 'production'] } },
      },
    ],
    paths,
    components: { ...components, schemas: { ...schemas, SuccessEnvelope: SUCCESS_ENVELOPE }, responses, pathItems },
  };
}
