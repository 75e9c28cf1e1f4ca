import { Ajv2020, type Options } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { type Document, OpenAPIBackend, type Operation } from 'openapi-backend';
import type { OpenApiDocument } from '../contract/openapi.ts';
import type { RouteDef } from '../contract/route-def.ts';
import { ROUTES } from '../contract/route-table.ts';
import { ApiError, type ApiErrorOptions } from './api-error.ts';
import { type FastValidation, fastValidationFor } from './fast-validation.ts';
import { compileMatcher } from './route-matcher.ts';
import { describeValidationErrors } from './validation-detail.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const MATCH_CACHE_SIZE = 1000;

const CONTROL_HINT = "Check the request against the control plane's description (GET /_sandbox/openapi.json).";

export interface RouteMatch {
  route: RouteDef;
  operation: Operation;
  params: Record<string, string>;
}

/** Routing and request validation driven by the generated OpenAPI 3.1 document (openapi-backend). */
export interface Router {
  /**
   * Settles once the router can match: the document is built and openapi-backend initialised on the
   * first read of `ready`, so a surface nobody calls costs nothing at start-up.
   */
  readonly ready: Promise<void>;
  /** The matched route, or an ApiError: 404 for an unknown path, 404 + Allow for a wrong method. */
  match(method: string, path: string): RouteMatch;
  /** Validates query, params, headers and JSON body; throws invalid_request naming the fields. */
  validate(
    m: RouteMatch,
    req: {
      method: string;
      path: string;
      headers: Record<string, string>;
      query: Record<string, string | string[]>;
      body: unknown;
    },
  ): void;
}

/** What one router answers for paths and methods it does not have, and how it reads bodies. */
export interface RouterOptions {
  /** The route table behind the document (default: the public interface's ROUTES). */
  routes?: readonly RouteDef[];
  /** The 404 for a path no route has. */
  unknownPath?: (path: string) => ApiErrorOptions;
  /** The 404 + Allow for a path that exists with other methods. */
  wrongMethod?: (method: string, path: string, allow: string) => ApiErrorOptions;
  /** Fill absent body members with their schema's `default` (the control plane's optional counts). */
  useDefaults?: boolean;
}

const PUBLIC_ANSWERS: Required<Pick<RouterOptions, 'unknownPath' | 'wrongMethod'>> = {
  unknownPath: (path) => ({
    detail: `No route ${path}.`,
    hint: 'GET /api/public/v1 lists every route of the interface.',
  }),
  wrongMethod: (method, path, allow) => ({
    message: `The method ${method} is not offered on this path.`,
    detail: `${path} answers ${allow}.`,
    hint: `Use one of: ${allow}.`,
  }),
};

/** openapi-backend over the generated document, as the router uses it (call `init()` before use). */
export function createOpenApiBackend(doc: OpenApiDocument, opts: { useDefaults?: boolean } = {}): OpenAPIBackend {
  const useDefaults = opts.useDefaults ?? false;
  // openapi-backend asks for a new Ajv for every validator it compiles; one per option set serves
  // them all (the compiled schemas carry no $id, so they cannot collide).
  const shared = new Map<string, Ajv2020>();
  return new OpenAPIBackend({
    definition: structuredClone(doc) as unknown as Document,
    // The 3.1 document must not be checked against openapi-backend's 3.0 meta-schema (it would 404 everything).
    quick: true,
    coerceTypes: true,
    // meta and validateSchema off: the schemas come from the zod contract (the OpenAPI tests check
    // them); checking them would compile the 2020-12 meta-schema first, ~50 ms on the first request.
    ajvOpts: { strict: false, allErrors: true, useDefaults, meta: false, validateSchema: false },
    customizeAjv: (_original: unknown, ajvOpts: Options) => {
      const key = String(ajvOpts.coerceTypes);
      let ajv = shared.get(key);
      if (!ajv) {
        ajv = addFormats(new Ajv2020({ ...ajvOpts, strict: false, allErrors: true, useDefaults }));
        shared.set(key, ajv);
      }
      return ajv as never;
    },
  });
}

/** Initialised backends and their compiled validators, by document text (the oldest dropped first). */
interface SharedBackend {
  backend: Promise<OpenAPIBackend>;
  /** openapi-backend's matching compiled once (route-matcher.ts), built when the backend is. */
  matcher: Promise<ReturnType<typeof compileMatcher>>;
  fastValidation: Map<string, FastValidation | undefined>;
  /**
   * Matches by route table, then by `method path`: matching depends on the document and the table
   * only, and a new sandbox's router otherwise matched every path anew.
   */
  matches: WeakMap<readonly RouteDef[], Map<string, RouteMatch>>;
  /** The Allow list of a path, by path. */
  allows: Map<string, string>;
}
const backends = new Map<string, SharedBackend>();
const SHARED_BACKENDS = 8;

/**
 * The backend of a document, shared by every router of the same document in this process: each
 * sandbox (a test file may create dozens) would otherwise compile the same validators again, some
 * 300 ms of CPU each. Matching and validation keep no state per request, so sharing is safe.
 */
function sharedBackend(doc: OpenApiDocument, useDefaults: boolean) {
  // Without `servers`: openapi-backend matches paths only, and a sandbox's servers name its own port, so
  // keyed with them every sandbox on a new port compiled the same validators again.
  const key = `${useDefaults} ${JSON.stringify({ ...doc, servers: undefined })}`;
  let entry = backends.get(key);
  if (!entry) {
    const backend = createOpenApiBackend(doc, { useDefaults });
    const initialised = backend.init().then(() => backend);
    entry = {
      backend: initialised,
      matcher: initialised.then((b) => compileMatcher(b.router.getOperations(), { apiRoot: b.router.apiRoot })),
      fastValidation: new Map(),
      matches: new WeakMap(),
      allows: new Map(),
    };
    const oldest = backends.keys().next().value;
    if (backends.size >= SHARED_BACKENDS && oldest !== undefined) backends.delete(oldest);
    backends.set(key, entry);
    // A failed start is not kept: the next router tries again.
    entry.backend.catch(() => backends.delete(key));
  }
  return entry;
}

/**
 * The document may be given as a function: it is then built when `ready` is first read.
 * @example const router = createRouter(() => buildOpenApiDocument()); await router.ready; router.match('GET', '/api/public/v1/providers');
 */
export function createRouter(doc: OpenApiDocument | (() => OpenApiDocument), opts: RouterOptions = {}): Router {
  let backend: OpenAPIBackend | undefined;
  let matcher: ReturnType<typeof compileMatcher> | undefined;
  let ready: Promise<void> | undefined;
  let fastValidation = new Map<string, FastValidation | undefined>();
  const table = opts.routes ?? ROUTES;
  let allowCache = new Map<string, string>();
  // A match depends only on method and path, so hits are remembered (bounded: oldest dropped first),
  // shared by every router of the same document and route table; a miss costs the compiled matcher's
  // few µs (route-matcher.ts; openapi-backend's own matchOperation took 150-250 µs).
  let matchCache = new Map<string, RouteMatch>();
  const start = async () => {
    const shared = sharedBackend(typeof doc === 'function' ? doc() : doc, opts.useDefaults ?? false);
    backend = await shared.backend;
    matcher = await shared.matcher;
    fastValidation = shared.fastValidation;
    allowCache = shared.allows;
    let matches = shared.matches.get(table);
    if (!matches) {
      matches = new Map();
      shared.matches.set(table, matches);
    }
    matchCache = matches;
  };
  const api = () => {
    if (!backend) throw new Error('the router is used before its ready promise settled');
    return backend;
  };
  const matching = () => {
    if (!matcher) throw new Error('the router is used before its ready promise settled');
    return matcher;
  };
  const byId = new Map(table.map((r) => [r.id, r]));
  const unknownPath = opts.unknownPath ?? PUBLIC_ANSWERS.unknownPath;
  const wrongMethod = opts.wrongMethod ?? PUBLIC_ANSWERS.wrongMethod;

  function allowedMethods(path: string): string {
    let allow = allowCache.get(path);
    if (allow === undefined) {
      const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => matching().match(m, path));
      allow = methods.join(', ');
      if (allowCache.size < 1000) allowCache.set(path, allow);
    }
    return allow;
  }

  return {
    get ready() {
      ready ??= start();
      return ready;
    },
    match(method, path) {
      const key = `${method} ${path}`;
      const hit = matchCache.get(key);
      if (hit) return hit;
      try {
        decodeURI(path);
      } catch {
        throw new ApiError('invalid_request', {
          detail: 'The path is not valid percent-encoded UTF-8.',
          hint: 'Percent-encode path segments as UTF-8.',
        });
      }
      const found = matching().match(method, path);
      if (!found) {
        const allow = allowedMethods(path);
        if (allow) throw new ApiError('not_found', { ...wrongMethod(method, path, allow), headers: { allow } });
        throw new ApiError('not_found', unknownPath(path));
      }
      const { operation, params } = found;
      const route = byId.get(operation.operationId ?? '');
      if (!route) throw new Error(`route table has no ${operation.operationId}`);
      const m: RouteMatch = { route, operation, params };
      if (matchCache.size >= MATCH_CACHE_SIZE) {
        const oldest = matchCache.keys().next().value;
        if (oldest !== undefined) matchCache.delete(oldest);
      }
      matchCache.set(key, m);
      return m;
    },
    validate(m, req) {
      const id = m.route.id;
      if (!fastValidation.has(id))
        fastValidation.set(
          id,
          fastValidationFor(m.operation, api().validator.getRequestValidatorsForOperation(id) ?? []),
        );
      const fast = fastValidation.get(id);
      const errors = fast
        ? fast.validate(m.params, req)
        : api().validator.validateRequest(
            { method: req.method, path: req.path, headers: req.headers, query: req.query, body: req.body },
            m.operation,
          ).errors;
      if (errors?.length) {
        const { detail } = describeValidationErrors(errors);
        // The table's hint names the interface's document; a control-plane route is described by its own.
        if (m.route.surface === 'control') throw new ApiError('invalid_request', { detail, hint: CONTROL_HINT });
        throw new ApiError('invalid_request', { detail });
      }
    },
  };
}
