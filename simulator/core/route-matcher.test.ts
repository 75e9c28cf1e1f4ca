import fc from 'fast-check';
import type { OpenAPIBackend } from 'openapi-backend';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument, type OpenApiDocument } from '../contract/openapi.ts';
import { compileMatcher } from './route-matcher.ts';
import { createOpenApiBackend } from './router.ts';

/** A document with what ordering and parameters can trip over: same literal lengths, suffixes, repeats. */
const TRICKY = {
  openapi: '3.1.0',
  info: { title: 'tricky', version: '1' },
  paths: Object.fromEntries(
    [
      ['/a/{x}', ['get', 'post']],
      ['/a/b', ['post']],
      ['/a/{x}/c', ['get']],
      ['/{y}/b', ['get', 'delete']],
      ['/{y}/{x}', ['put']],
      ['/files/{name}.json', ['get']],
      ['/files/{name}', ['get']],
      ['/same/{id}/and/{id}', ['get']],
      ['/', ['get']],
    ].map(([path, methods]) => [
      path,
      Object.fromEntries(
        (methods as string[]).map((m) => [
          m,
          { operationId: `${m} ${path}`, responses: { 200: { description: 'ok' } } },
        ]),
      ),
    ]),
  ),
} as unknown as OpenApiDocument;

const METHODS = ['GET', 'get', ' POST ', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];
const PIECES = [
  'a',
  'b',
  'c',
  'x',
  'files',
  'same',
  'and',
  'con_1',
  'v1',
  '%41',
  '%2F',
  '%E2%82%AC',
  '%',
  '%zz',
  '.json',
  ' ',
  '',
];

/** Paths near the templates: their own segments, ids, encodings, a query, trailing and doubled slashes. */
function pathsNear(templates: string[]) {
  const segment = fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 6 }));
  const fromTemplate = fc
    .tuple(fc.constantFrom(...templates), fc.array(segment, { minLength: 4, maxLength: 4 }))
    .map(([t, values]) => {
      let i = 0;
      return t.replace(/\{[^}]+\}/g, () => values[i++ % values.length]!);
    });
  const free = fc.array(segment, { maxLength: 6 }).map((parts) => `/${parts.join('/')}`);
  const tail = fc.constantFrom('', '/', '//', '?q=1', '/?x', ' ');
  return fc.tuple(fc.oneof(fromTemplate, free), tail).map(([p, t]) => p + t);
}

/** openapi-backend's own answer, or the error it throws. */
function reference(backend: OpenAPIBackend, method: string, path: string) {
  try {
    const op = backend.router.matchOperation({ method, path, headers: {} });
    if (!op) return undefined;
    return { id: op.operationId, params: backend.router.parseRequest({ method, path, headers: {} }, op).params ?? {} };
  } catch (err) {
    return { threw: (err as Error).name };
  }
}

function compiled(matcher: ReturnType<typeof compileMatcher>, method: string, path: string) {
  try {
    const found = matcher.match(method, path);
    return found && { id: found.operation.operationId, params: found.params };
  } catch (err) {
    return { threw: (err as Error).name };
  }
}

describe.each([
  ['the public document', () => buildOpenApiDocument()],
  ['a document of tricky templates', () => TRICKY],
])('compileMatcher on %s answers as openapi-backend does', (_name, doc) => {
  let backend: OpenAPIBackend;
  let matcher: ReturnType<typeof compileMatcher>;
  let templates: string[];
  beforeAll(async () => {
    backend = createOpenApiBackend(doc());
    await backend.init();
    matcher = compileMatcher(backend.router.getOperations(), { apiRoot: backend.router.apiRoot });
    templates = [...new Set(backend.router.getOperations().map((o) => o.path))];
  });

  it('for every template with its own text as the value', () => {
    for (const t of templates)
      for (const m of METHODS) expect(compiled(matcher, m, t), `${m} ${t}`).toEqual(reference(backend, m, t));
  });

  it('for any method and any path near the templates', () => {
    fc.assert(
      fc.property(fc.constantFrom(...METHODS), pathsNear(templates), (m, p) => {
        expect(compiled(matcher, m, p)).toEqual(reference(backend, m, p));
      }),
      { numRuns: 1000 },
    );
  });
});
