import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { OpenAPIBackend, type Document, type Operation } from 'openapi-backend';
import type { OpenApiDocument } from '../contract/openapi.ts';
import type { RouteDef } from '../contract/route-def.ts';
import { ROUTE_BY_ID } from '../contract/route-table.ts';
import { ApiError } from './api-error.ts';
import { describeValidationErrors } from './validation-detail.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export interface RouteMatch {
  route: RouteDef;
  operation: Operation;
  params: Record<string, string>;
}

/** Routing and request validation driven by the generated OpenAPI 3.1 document (openapi-backend). */
export interface Router {
  ready: Promise<void>;
  /** The matched route, or an ApiError: 404 for an unknown path, 404 + Allow for a wrong method. */
  match(method: string, path: string): RouteMatch;
  /** Validates query, params, headers and JSON body; throws invalid_request naming the fields. */
  validate(m: RouteMatch, req: { method: string; path: string; headers: Record<string, string>; query: Record<string, string | string[]>; body: unknown }): void;
}

/**
 * @example const router = createRouter(buildOpenApiDocument()); await router.ready; router.match('GET', '/api/public/v1/providers');
 */
export function createRouter(doc: OpenApiDocument): Router {
  const api: OpenAPIBackend = new OpenAPIBackend({
    definition: structuredClone(doc) as unknown as Document,
    // The 3.1 document must not be checked against openapi-backend's 3.0 meta-schema (it would 404 everything).
    quick: true,
    coerceTypes: true,
    ajvOpts: { strict: false, allErrors: true },
    customizeAjv: (_original: unknown, ajvOpts: object) => addFormats(new Ajv2020({ ...ajvOpts, strict: false, allErrors: true }) as never) as never,
  });
  const ready = api.init().then(() => undefined);
  const allowCache = new Map<string, string>();

  function allowedMethods(path: string): string {
    let allow = allowCache.get(path);
    if (allow === undefined) {
      const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => api.router.matchOperation({ method: m, path, headers: {} }));
      allow = methods.join(', ');
      if (allowCache.size < 1000) allowCache.set(path, allow);
    }
    return allow;
  }

  return {
    ready,
    match(method, path) {
      try {
        decodeURI(path);
      } catch {
        throw new ApiError('invalid_request', { detail: 'The path is not valid percent-encoded UTF-8.', hint: 'Percent-encode path segments as UTF-8.' });
      }
      const operation = api.router.matchOperation({ method, path, headers: {} });
      if (!operation) {
        const allow = allowedMethods(path);
        if (allow) {
          throw new ApiError('not_found', {
            message: `The method ${method} is not offered on this path.`,
            detail: `${path} answers ${allow}.`,
            hint: `Use one of: ${allow}.`,
            headers: { allow },
          });
        }
        throw new ApiError('not_found', { detail: `No route ${path}.`, hint: 'GET /api/public/v1 lists every route of the interface.' });
      }
      const route = ROUTE_BY_ID.get(operation.operationId ?? '');
      if (!route) throw new Error(`route table has no ${operation.operationId}`);
      return { route, operation, params: api.router.parseRequest({ method, path, headers: {} }, operation).params ?? {} };
    },
    validate(m, req) {
      const result = api.validator.validateRequest({ method: req.method, path: req.path, headers: req.headers, query: req.query, body: req.body }, m.operation);
      if (!result.valid) {
        const { detail } = describeValidationErrors(result.errors ?? []);
        throw new ApiError('invalid_request', { detail });
      }
    },
  };
}
