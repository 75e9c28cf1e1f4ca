import { BASE_PATH } from '../../../simulator/contract/versions.ts';
import type { Exchange } from '../../client/http-client.ts';
import type { CheckContext } from '../../runner/check.ts';
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
  servers?: { url?: unknown }[];
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

/**
 * The OpenAPI document an answer carries: the body itself, or the `data` of a success envelope holding one
 * ("Success envelope (every JSON success response)": a deployment may wrap the document like any success).
 * @example documentOf({ ok: true, data: { openapi: '3.1.0' }, meta: {} }) // { openapi: '3.1.0' }
 */
export function documentOf(json: unknown): unknown {
  const body = json as { ok?: unknown; data?: { openapi?: unknown } } | null;
  const wrapped = body?.ok === true && typeof body.data === 'object' && body.data !== null && 'openapi' in body.data;
  return wrapped && !(typeof body === 'object' && 'openapi' in body) ? body.data : json;
}

/** GET openapi.json without credentials (shared by the run); `json` is the document, out of an envelope if served in one. */
export const openApiExchange = async (ctx: CheckContext): Promise<Exchange> =>
  documentExchange(await publicGet(ctx, `${BASE_PATH}/openapi.json`));

/** Whether the answer's body is a success envelope whose data is the document (documentExchange unwrapped it). */
export function servedInEnvelope(ex: Exchange): boolean {
  try {
    const body = JSON.parse(ex.text) as unknown;
    return documentOf(body) !== body;
  } catch {
    return false;
  }
}

/** The exchange with `json` the document it carries (see documentOf); the same exchange when not wrapped. */
export function documentExchange(ex: Exchange): Exchange {
  const doc = documentOf(ex.json);
  return doc === ex.json ? ex : { ...ex, json: doc };
}

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

/** Where the document is served: relative server URLs resolve against it (OpenAPI 3.1 §4.8.5). */
const DOCUMENT_URL = `http://document.invalid${BASE_PATH}/openapi.json`;

/**
 * The path prefix the document's `servers` put before every path: '' for servers at the origin (the
 * simulator's '/'), '/api/public/v1' for a server URL naming the base path (absolute or relative, as
 * a deployment may publish `servers: [{url: '/api/public/v1'}]` with paths like '/providers').
 * @example serverBasePath({ servers: [{ url: '/api/public/v1' }] }) // '/api/public/v1'
 */
export function serverBasePath(doc: { servers?: unknown }): string {
  const servers = Array.isArray(doc.servers) ? doc.servers : [];
  const first = servers.find((s: { url?: unknown }) => typeof s?.url === 'string') as { url: string } | undefined;
  if (!first) return '';
  let path: string;
  try {
    // Server variables ({name}) cannot be resolved here: their default is not needed for a path prefix.
    path = new URL(first.url.replace(/\{[^}]*\}/g, 'x'), DOCUMENT_URL).pathname;
  } catch {
    return '';
  }
  return decodeURI(path).replace(/\/+$/, '');
}

/** A path of the document as the interface writes it: the servers' base path put in front. */
const fullPath = (base: string, path: string) => {
  if (!base || path === base || path.startsWith(`${base}/`)) return path;
  return path === '/' ? base : `${base}${path}`;
};

/**
 * What a local reference (`#/…`) of the document points at, followed through chains, with its JSON
 * pointer's parts; a value without one is itself, at `at`. OpenAPI 3.1 lets a path item (into
 * `components/pathItems`), a response (`components/responses`) and more be references, and a document is
 * the same document either way. External references are not followed (the kit reads one document).
 * @example deref(doc, { $ref: '#/components/pathItems/Providers' }, ['paths', '/providers']) // { value: {get: …}, at: ['components', 'pathItems', 'Providers'] }
 */
export function deref(doc: unknown, value: unknown, at: string[]): { value: unknown; at: string[] } {
  let [current, where] = [value, at];
  for (let hops = 0; hops < 16; hops++) {
    const ref = current && typeof current === 'object' ? (current as { $ref?: unknown }).$ref : undefined;
    if (typeof ref !== 'string' || !ref.startsWith('#/')) break;
    where = ref
      .slice(2)
      .split('/')
      .map((p) => decodeURIComponent(p).replace(/~1/g, '/').replace(/~0/g, '~'));
    current = where.reduce<unknown>(
      (node, k) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[k] : undefined),
      doc,
    );
  }
  return { value: current, at: where };
}

/** A path item of the document, its reference followed. */
const pathItem = (doc: OpenApiLike, key: string) =>
  deref(doc, doc.paths?.[key], ['paths', key]) as { value: Record<string, OperationLike> | undefined; at: string[] };

/** Every operation of the document as METHOD + full path (the servers' base path applied). */
export function operationsOf(doc: OpenApiLike): OperationRef[] {
  const base = serverBasePath(doc);
  const out: OperationRef[] = [];
  for (const path of Array.isArray(doc.paths) ? [] : Object.keys(doc.paths ?? {})) {
    const item = pathItem(doc, path).value;
    if (typeof item !== 'object' || item === null) continue;
    for (const m of HTTP_METHODS) {
      const op = item[m];
      if (op && typeof op === 'object') out.push({ method: m.toUpperCase(), path: fullPath(base, path), op });
    }
  }
  return out;
}

/** METHOD + full path of every operation, for documents not yet known to be OpenAPI. */
export function documentPaths(doc: { paths?: unknown; servers?: unknown }): { method: string; path: string }[] {
  if (typeof doc.paths !== 'object' || doc.paths === null) return [];
  return operationsOf(doc as OpenApiLike).map(({ method, path }) => ({ method, path }));
}

/**
 * Each document's path keys by the full path they stand for, built once per document object: the judges
 * look up every interface route several times, and a hostile document's `paths` may hold hundreds of
 * thousands of keys (a fresh list of them per lookup grew the kit by hundreds of MB). A `paths` that is
 * not an object of path items (an array, a number) has no keys.
 */
const pathKeyIndex = new WeakMap<object, Map<string, string>>();

function pathKeys(doc: OpenApiLike): Map<string, string> {
  let index = pathKeyIndex.get(doc);
  if (index) return index;
  index = new Map();
  const paths = doc.paths;
  if (paths && typeof paths === 'object' && !Array.isArray(paths)) {
    const base = serverBasePath(doc);
    // The first key standing for a path wins, as a search in the document's order would find it.
    for (const k of Object.keys(paths)) {
      const full = fullPath(base, k);
      if (!index.has(full)) index.set(full, k);
    }
  }
  pathKeyIndex.set(doc, index);
  return index;
}

/** The key of `doc.paths` that stands for an interface path (the servers' base path taken off). */
export function documentPathKey(doc: OpenApiLike, path: string): string | undefined {
  return pathKeys(doc).get(path);
}

export function findOperation(doc: OpenApiLike, method: string, path: string): OperationLike | undefined {
  return locateOperation(doc, method, path)?.op;
}

/** An operation and the pointer parts where it stands (inside `components` when its path item is a reference). */
function locateOperation(doc: OpenApiLike, method: string, path: string) {
  const key = documentPathKey(doc, path);
  if (key === undefined) return undefined;
  const item = pathItem(doc, key);
  const op = item.value?.[method.toLowerCase()];
  return op && typeof op === 'object' ? { op, at: [...item.at, method.toLowerCase()] } : undefined;
}

/**
 * The 200 response's `content` of an operation and the pointer parts of that content, its references
 * followed (a response may be a `$ref` to `components/responses`).
 * @example successContent(doc, 'GET', '/api/public/v1/stream')?.content['text/event-stream']
 */
export function successContent(
  doc: OpenApiLike,
  method: string,
  path: string,
): { content: Record<string, { schema?: unknown }>; at: string[] } | undefined {
  return responseContent(doc, method, path, ['200']);
}

/**
 * The `content` of the response an operation documents for a status: the status itself, else its range
 * (`4XX`), else `default`, as OpenAPI 3.1 reads them.
 * @example statusContent(doc, 'GET', '/api/public/v1/providers', 401)?.content['application/json']
 */
export function statusContent(doc: OpenApiLike, method: string, path: string, status: number) {
  return responseContent(doc, method, path, [String(status), `${String(status)[0]}XX`, 'default']);
}

function responseContent(
  doc: OpenApiLike,
  method: string,
  path: string,
  keys: string[],
): { content: Record<string, { schema?: unknown }>; at: string[] } | undefined {
  const found = locateOperation(doc, method, path);
  const responses = found?.op.responses as Record<string, unknown> | undefined;
  // Range keys are upper case in the specification; some generators write them in lower case.
  const key = keys
    .map((k) => Object.keys(responses ?? {}).find((have) => have.toUpperCase() === k.toUpperCase()))
    .find((k) => k !== undefined);
  if (!found || !responses || key === undefined) return undefined;
  const response = deref(doc, responses[key], [...found.at, 'responses', key]);
  const content = (response.value as { content?: unknown } | undefined)?.content;
  return content && typeof content === 'object'
    ? { content: content as Record<string, { schema?: unknown }>, at: [...response.at, 'content'] }
    : undefined;
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

/**
 * Where an operation and its path item stand in the document (their references followed), for reading
 * the path item's shared `parameters` too.
 * @example operationLocation(doc, 'POST', '/api/public/v1/connections')?.at // ['paths', '/api/public/v1/connections', 'post']
 */
export function operationLocation(
  doc: OpenApiLike,
  method: string,
  path: string,
): { op: OperationLike; at: string[]; item: Record<string, unknown>; itemAt: string[] } | undefined {
  const key = documentPathKey(doc, path);
  if (key === undefined) return undefined;
  const item = pathItem(doc, key);
  const found = locateOperation(doc, method, path);
  if (!found || !item.value) return undefined;
  return { ...found, item: item.value as Record<string, unknown>, itemAt: item.at };
}
