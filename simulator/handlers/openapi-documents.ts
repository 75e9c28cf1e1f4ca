import { buildOpenApiDocument, type OpenApiDocument } from '../contract/openapi.ts';
import { openApiYaml } from '../contract/openapi-yaml.ts';
import { PREBUILT_DOCUMENTS } from '../contract/prebuilt-documents.ts';
import { type ApiVersion, CURRENT_VERSION } from '../contract/versions.ts';

// Generated documents and their YAML, once per process: every sandbox (tests create hundreds) gets a
// copy parsed from the text instead of generating the same document again (~70 ms, YAML ~90 ms).
const generated = new Map<string, string>();
const yamlByJson = new Map<string, string>();
const KEPT = 16;

function remember(map: Map<string, string>, key: string, make: () => string): string {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    const oldest = map.keys().next().value;
    if (map.size >= KEPT && oldest !== undefined) map.delete(oldest);
    map.set(key, value);
  }
  return value;
}

function generatedText(version: ApiVersion, servers: string[] | undefined): string {
  return remember(generated, JSON.stringify([version, servers ?? null]), () =>
    JSON.stringify(buildOpenApiDocument({ version, ...(servers ? { servers } : {}) })),
  );
}

function routingText(version: ApiVersion): string {
  return remember(generated, JSON.stringify([version, 'routing']), () =>
    JSON.stringify(buildOpenApiDocument({ version, forRouting: true })),
  );
}

function yamlOf(doc: OpenApiDocument, json: string): string {
  return remember(yamlByJson, json, () => openApiYaml(doc));
}

/** The OpenAPI document of each published version, built lazily once and kept as JSON and YAML text. */
export interface OpenApiDocuments {
  object(version?: ApiVersion): OpenApiDocument;
  /**
   * What the router reads (paths, parameters, headers, request bodies): the whole document when one is
   * at hand (built already, or prebuilt by `npm run build`), else one generated without responses, so a
   * start from source does not generate the published document before anyone asks for it.
   */
  routing(version?: ApiVersion): OpenApiDocument;
  json(version?: ApiVersion): string;
  yaml(version?: ApiVersion): string;
}

/**
 * `prebuilt` (default: what `npm run build` generated, none from source) holds documents with relative
 * `servers`; it is used only when no `servers` are given.
 * @example const docs = createOpenApiDocuments(); docs.json('2026-07-01');
 */
export function createOpenApiDocuments(
  servers?: string[],
  prebuilt: Readonly<Record<string, string>> | undefined = PREBUILT_DOCUMENTS,
): OpenApiDocuments {
  const cache = new Map<string, { doc: OpenApiDocument; json?: string; yaml?: string }>();
  const build = (version: ApiVersion): OpenApiDocument => {
    const text = (servers ? undefined : prebuilt?.[version]) ?? generatedText(version, servers);
    return JSON.parse(text) as OpenApiDocument;
  };
  const entry = (version: ApiVersion) => {
    let e = cache.get(version);
    if (!e) {
      e = { doc: build(version) };
      cache.set(version, e);
    }
    return e;
  };
  return {
    object: (v = CURRENT_VERSION) => entry(v).doc,
    routing(v = CURRENT_VERSION) {
      const built = cache.get(v)?.doc;
      if (built) return built;
      const text = prebuilt?.[v] ?? routingText(v);
      return JSON.parse(text) as OpenApiDocument;
    },
    json(v = CURRENT_VERSION) {
      const e = entry(v);
      e.json ??= JSON.stringify(e.doc, null, 2);
      return e.json;
    },
    yaml(v = CURRENT_VERSION) {
      const e = entry(v);
      e.json ??= JSON.stringify(e.doc, null, 2);
      e.yaml ??= yamlOf(e.doc, e.json);
      return e.yaml;
    },
  };
}
