import { buildOpenApiDocument, type OpenApiDocument } from '../contract/openapi.ts';
import { openApiYaml } from '../contract/openapi-yaml.ts';
import { CURRENT_VERSION, type ApiVersion } from '../contract/versions.ts';

/** The OpenAPI document of each published version, built lazily once and kept as JSON and YAML text. */
export interface OpenApiDocuments {
  object(version?: ApiVersion): OpenApiDocument;
  json(version?: ApiVersion): string;
  yaml(version?: ApiVersion): string;
}

export function createOpenApiDocuments(servers?: string[]): OpenApiDocuments {
  const cache = new Map<string, { doc: OpenApiDocument; json?: string; yaml?: string }>();
  const entry = (version: ApiVersion) => {
    let e = cache.get(version);
    if (!e) {
      e = { doc: buildOpenApiDocument({ version, ...(servers ? { servers } : {}) }) };
      cache.set(version, e);
    }
    return e;
  };
  return {
    object: (v = CURRENT_VERSION) => entry(v).doc,
    json(v = CURRENT_VERSION) {
      const e = entry(v);
      e.json ??= JSON.stringify(e.doc, null, 2);
      return e.json;
    },
    yaml(v = CURRENT_VERSION) {
      const e = entry(v);
      e.yaml ??= openApiYaml(e.doc);
      return e.yaml;
    },
  };
}
