import type { CheckContext } from '../../runner/check.ts';
import type { Exchange } from '../../client/http-client.ts';
import { BASE_PATH } from '../../../simulator/contract/versions.ts';
import { publicGet } from './public-get.ts';

export interface OperationLike {
  operationId?: string;
  security?: Record<string, unknown>[];
  parameters?: { name?: string; in?: string; required?: boolean }[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

/** The parts of a target's OpenAPI document the checks read. */
export interface OpenApiLike {
  openapi?: unknown;
  security?: Record<string, unknown>[];
  paths?: Record<string, Record<string, OperationLike>>;
  components?: Record<string, unknown>;
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

export interface OperationRef {
  method: string;
  path: string;
  op: OperationLike;
}

/** GET openapi.json without credentials (shared by the run); the raw exchange. */
export const openApiExchange = (ctx: CheckContext): Promise<Exchange> => publicGet(ctx, `${BASE_PATH}/openapi.json`);

/** The target's document, or a skip naming why it is unavailable (discovery checks report that). */
export async function requireOpenApi(ctx: CheckContext): Promise<{ ex: Exchange; doc: OpenApiLike }> {
  const ex = await openApiExchange(ctx);
  const doc = ex.json;
  if (ex.status !== 200 || typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    ctx.skip(
      `needs the target's OpenAPI document, but GET ${BASE_PATH}/openapi.json answered ${ex.status}${ex.json === undefined ? ' without JSON' : ''} (see discovery.public-endpoints and discovery.openapi-valid)`,
    );
  }
  return { ex, doc: doc as OpenApiLike };
}

/** Every operation of the document as METHOD + path. */
export function operationsOf(doc: OpenApiLike): OperationRef[] {
  const out: OperationRef[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    if (typeof item !== 'object' || item === null) continue;
    for (const m of HTTP_METHODS) {
      const op = item[m];
      if (op && typeof op === 'object') out.push({ method: m.toUpperCase(), path, op });
    }
  }
  return out;
}

export function findOperation(doc: OpenApiLike, method: string, path: string): OperationLike | undefined {
  return doc.paths?.[path]?.[method.toLowerCase()];
}

/** Whether the operation demands credentials: some security requirement and no empty (anonymous) alternative. */
export function operationRequiresAuth(doc: OpenApiLike, op: OperationLike): boolean {
  const security = op.security ?? doc.security ?? [];
  return security.length > 0 && !security.some((req) => Object.keys(req).length === 0);
}

/** JSON pointer of a path inside the document (for Ajv's getSchema). */
export function pointer(...parts: string[]): string {
  return `#/${parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
}
