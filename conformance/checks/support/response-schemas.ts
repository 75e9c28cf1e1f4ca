import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { KIT_AJV_OPTIONS } from '../../rules/ajv-options.ts';
import type { CheckContext } from '../../runner/check.ts';
import { type OpenApiLike, pointer, requireOpenApi, statusContent, successContent } from './openapi.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export interface ResponseSchemas {
  /** The validator of the JSON 200 response of an operation, or undefined when the document has none. */
  forOperation(method: string, path: string): ValidateFunction | undefined;
  /** The validator of the JSON response an operation documents for a status (its range, else `default`). */
  forStatus(method: string, path: string, status: number): ValidateFunction | undefined;
  /**
   * The validator of any Schema Object of the document by its JSON pointer (a parameter's or header's
   * schema), or undefined when it does not compile (discovery.openapi-valid and openapi.schemas-valid say so).
   */
  at(schemaPointer: string): ValidateFunction | undefined;
}

/**
 * The response schemas of the target's own openapi.json compiled with Ajv (JSON Schema 2020-12,
 * the dialect of OpenAPI 3.1), once per run; references resolve inside the document.
 */
export function responseSchemas(ctx: CheckContext): Promise<ResponseSchemas> {
  return requireOpenApi(ctx).then(({ doc }) =>
    ctx.shared('response-schemas', async () => {
      // The same document (the same deployment, run after run) reuses what was compiled for it: its addresses
      // (servers, the flows' URLs) left out of the key, where a deployment started again names its new port.
      const text = schemaKey(doc);
      const known = compiledByDocument.get(text);
      if (known) return known;
      const compiled = compileDocument(doc);
      const oldest = compiledByDocument.keys().next().value;
      if (compiledByDocument.size >= COMPILED_DOCUMENTS && oldest !== undefined) compiledByDocument.delete(oldest);
      compiledByDocument.set(text, compiled);
      return compiled;
    }),
  );
}

/**
 * The document as the key of its compiled schemas: everything but `servers` (of the document, a path item or an
 * operation) and the security schemes, which hold no Schema Object and name the addresses a deployment runs at.
 * @example schemaKey({ openapi: '3.1.0', servers: [{ url: 'http://127.0.0.1:4010' }], paths: {} }) // '{"openapi":"3.1.0","paths":{}}'
 */
export function schemaKey(doc: OpenApiLike): string {
  const { servers: _servers, paths, components, ...rest } = doc as Record<string, unknown>;
  const without = (o: unknown, name: string) => {
    if (!o || typeof o !== 'object' || Array.isArray(o)) return o;
    const { [name]: _left, ...kept } = o as Record<string, unknown>;
    return kept;
  };
  // Only a map of path items is rewritten: an array (not a document, judged elsewhere) is kept as it is, not
  // copied entry by entry (a 1 MB array of 500,000 entries cost the kit about 100 MB).
  const pathItems =
    paths && typeof paths === 'object' && !Array.isArray(paths)
      ? Object.fromEntries(
          Object.entries(paths as Record<string, unknown>).map(([p, item]) => {
            const kept = without(item, 'servers');
            if (!kept || typeof kept !== 'object') return [p, kept];
            const ops = Object.entries(kept as Record<string, unknown>).map(([k, v]) => [k, without(v, 'servers')]);
            return [p, Object.fromEntries(ops)];
          }),
        )
      : paths;
  return JSON.stringify({ ...rest, paths: pathItems, components: without(components, 'securitySchemes') });
}

/** Documents whose compiled schemas are kept for the next run in this process (compiling costs CPU). */
const COMPILED_DOCUMENTS = 4;
const compiledByDocument = new Map<string, ResponseSchemas>();

/** Compiles a document's schemas (for a run: responseSchemas, which shares and caches them). */
export function compileDocument(doc: OpenApiLike): ResponseSchemas {
  const ajv = addFormats(new Ajv2020({ ...KIT_AJV_OPTIONS, strict: false, allErrors: true }));
  const id = 'urn:ncs-conformance:target-openapi';
  // A copy: the document of this run is not kept alive by the cache's Ajv, nor changed by it.
  const own = structuredClone(doc);
  ajv.addSchema(own as object, id);
  const cache = new Map<string, ValidateFunction | undefined>();
  return {
    forOperation(method, path) {
      const key = `${method} ${path}`;
      if (!cache.has(key)) cache.set(key, compile(ajv, id, successContent(own, method, path)));
      return cache.get(key);
    },
    forStatus(method, path, status) {
      const key = `${method} ${path} ${status}`;
      if (!cache.has(key)) cache.set(key, compile(ajv, id, statusContent(own, method, path, status)));
      return cache.get(key);
    },
    at(schemaPointer) {
      const key = `at ${schemaPointer}`;
      if (!cache.has(key)) {
        let validate: ValidateFunction | undefined;
        try {
          validate = ajv.getSchema(`${id}${schemaPointer}`);
        } catch {
          validate = undefined;
        }
        cache.set(key, validate);
      }
      return cache.get(key);
    },
  };
}

function compile(
  ajv: Ajv2020,
  id: string,
  success: { content: Record<string, { schema?: unknown }>; at: string[] } | undefined,
): ValidateFunction | undefined {
  // Where the schema stands, references followed: a path item or response may live in components.
  const type = Object.keys(success?.content ?? {}).find((t) => /^application\/(?:[\w.+-]+\+)?json/.test(t));
  if (!success || !type || !success.content[type]?.schema) return undefined;
  return ajv.getSchema(`${id}${pointer(...success.at, type, 'schema')}`);
}

/** Ajv errors as one short line. */
export function describeAjvErrors(v: ValidateFunction): string {
  return (v.errors ?? [])
    .slice(0, 5)
    .map((e) => `${e.instancePath || '/'} ${e.message}`)
    .join('; ');
}
