// openapi.json agrees with itself and with what the deployment serves: every operationId names one
// operation (OpenAPI 3.1 requires it), and every success the run received is served in a media type the
// document lists for that operation's 200 answer.
import type { Exchange } from '../client/http-client.ts';
import { routeOf } from '../rules/exchange-scope.ts';
import { fillPath, interfaceRoutes } from '../rules/interface-routes.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { openApiAnswerChecks } from './openapi-answers.ts';
import { limitHeadersNumeric, retryAfterDocumented } from './openapi-limit-headers.ts';
import { openApiSchemaChecks } from './openapi-schemas.ts';
import { openApiServedChecks } from './openapi-served.ts';
import { pathParametersDeclared } from './openapi-templates.ts';
import { listed } from './support/listed.ts';
import { type OpenApiLike, operationsOf, requireOpenApi, successContent } from './support/openapi.ts';
import { successSamples } from './support/samples.ts';

/**
 * The operationIds the document gives more than one operation, with those operations. An operation
 * object reached from two paths (one path item referenced twice) is one operation, counted once.
 * @example duplicateOperationIds(doc) // [{ id: 'listCapabilities', operations: ['GET /…/capabilities', 'POST /…/capabilities'] }]
 */
export function duplicateOperationIds(doc: OpenApiLike): { id: string; operations: string[] }[] {
  const byId = new Map<string, { ops: Set<object>; operations: string[] }>();
  for (const { method, path, op } of operationsOf(doc)) {
    if (typeof op.operationId !== 'string') continue; // optional in OpenAPI; its type is the validator's
    const entry = byId.get(op.operationId) ?? { ops: new Set<object>(), operations: [] };
    if (entry.ops.has(op)) continue;
    entry.ops.add(op);
    entry.operations.push(`${method} ${path}`);
    byId.set(op.operationId, entry);
  }
  return [...byId].filter(([, e]) => e.operations.length > 1).map(([id, e]) => ({ id, operations: e.operations }));
}

export const operationIdsUnique = defineCheck({
  name: 'openapi.operation-ids-unique',
  title: 'every operationId of openapi.json names one operation (OpenAPI 3.1: "MUST be unique among all operations")',
  severity: 'MUST',
  section: 'GET /api/public/v1/openapi.json',
  tags: ['openapi', 'discovery'],
  mutating: false,
  async run(ctx: CheckContext) {
    const { ex, doc } = await requireOpenApi(ctx);
    const dups = duplicateOperationIds(doc);
    ctx.expect.that(dups.length === 0, {
      expected:
        'every operationId is unique among the operations of openapi.json (else it is no valid OpenAPI 3.1 description)',
      observed: listed(dups.map((d) => `${JSON.stringify(d.id)} names ${d.operations.join(' and ')}`)),
      exchange: ex,
    });
  },
});

/** A media type without its parameters, in lower case: `Application/JSON; charset=UTF-8` is `application/json`. */
export const bareMediaType = (value: string | undefined) => (value ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

/**
 * Whether `served` is one of the media types the document lists (keys of a `content` map), ranges such
 * as `text/*` and `*\/*` included (OpenAPI 3.1 §4.8.14: the more specific key wins, any match is listed).
 * @example mediaTypeListed('text/event-stream', ['text/event-stream']) // true
 * @example mediaTypeListed('application/json', ['text/event-stream']) // false
 */
export function mediaTypeListed(served: string, listedTypes: readonly string[]): boolean {
  const [type] = served.split('/');
  return listedTypes.map(bareMediaType).some((m) => m === served || m === '*/*' || m === `${type}/*`);
}

/** The run's 200 answers of interface endpoints; a stream is opened when no check read one (a narrowed run). */
async function successAnswers(ctx: CheckContext) {
  await successSamples(ctx);
  const bases = [ctx.target.baseUrl, ...(ctx.target.altBaseUrl ? [ctx.target.altBaseUrl] : [])];
  const answers = ctx.exchanges().flatMap(({ ex }) => {
    const route = routeOf(ex, bases);
    return route && ex.status === 200 ? [{ route, ex }] : [];
  });
  const stream = interfaceRoutes().find((r) => r.kind === 'sse' && r.method === 'GET');
  if (stream && !answers.some((a) => a.route.id === stream.id)) {
    const session = await ctx.stream(fillPath(stream.path), { credentials: 'none' });
    await session.close();
    if (session.ex.status === 200) answers.push({ route: stream, ex: session.ex });
  }
  return answers;
}

export const successContentType = defineCheck({
  name: 'openapi.success-content-type',
  title:
    "every 200 answer of the run is served in a media type openapi.json lists for that operation's 200 response (the stream's text/event-stream too); operations described without content are not judged",
  severity: 'MUST',
  section: 'Endpoints',
  tags: ['openapi', 'responses'],
  mutating: false,
  // After the other checks: it judges the answers they received.
  judgesRun: true,
  async run(ctx: CheckContext) {
    const { doc } = await requireOpenApi(ctx);
    const offenders = new Map<string, { ex: Exchange; served: string; documented: string[]; count: number }>();
    const notDescribed = new Set<string>();
    let judged = 0;
    for (const { route, ex } of await successAnswers(ctx)) {
      const label = `${route.method} ${route.path}`;
      const documented = Object.keys(successContent(doc, route.method, route.path)?.content ?? {});
      if (documented.length === 0) {
        notDescribed.add(label);
        continue;
      }
      judged++;
      const served = bareMediaType(ex.headers['content-type']);
      if (mediaTypeListed(served, documented)) continue;
      const seen = offenders.get(label);
      if (seen) seen.count++;
      else offenders.set(label, { ex, served: served || '(no Content-Type)', documented, count: 1 });
    }
    ctx.note(`judged ${judged} answers of interface endpoints`);
    if (notDescribed.size)
      ctx.note(`not judged (openapi.json describes no 200 content for them): ${listed([...notDescribed], 6, ', ')}`);
    for (const [label, o] of offenders)
      ctx.fail({
        expected: `${label} answers 200 in a media type openapi.json lists for its 200 response: ${o.documented.join(', ')}`,
        observed: `served as ${o.served} (${o.count} answer${o.count === 1 ? '' : 's'} of the run)`,
        exchange: o.ex,
      });
  },
});

// The document's schemas, parameter lists, failure codes, answers, path templates, limit headers and the
// values the run was served (their own files) register here too.
export const openApiConsistencyChecks = [
  operationIdsUnique,
  successContentType,
  ...openApiSchemaChecks,
  ...openApiAnswerChecks,
  pathParametersDeclared,
  limitHeadersNumeric,
  retryAfterDocumented,
  ...openApiServedChecks,
];
