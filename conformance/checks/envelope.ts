import { z } from 'zod';
import { Meta, successEnvelope } from '../../simulator/contract/envelope.ts';
import { ERROR_TABLE } from '../../simulator/contract/errors.ts';
import type { RouteDef } from '../../simulator/contract/route-def.ts';
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import type { Exchange } from '../client/http-client.ts';
import { routeOf } from '../rules/exchange-scope.ts';
import { requestIdHeaderProblem } from '../rules/response-rules.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { emptiedList } from './support/empty-list.ts';
import { errorProbes } from './support/error-probes.ts';
import { currentVersion } from './support/openapi-served-judge.ts';
import { describeAjvErrors, responseSchemas } from './support/response-schemas.ts';
import { READ_ONLY_POST_IDS, successSamples } from './support/samples.ts';

/** The envelope itself; meta's fields are envelope.meta-fields' business, meta.version versions.*'. */
const SuccessShape = successEnvelope(z.record(z.string(), z.unknown())).extend({ meta: z.looseObject({}) });
const MetaFields = Meta.extend({ version: z.string().min(1) });
const issues = (e: z.ZodError) =>
  e.issues
    .slice(0, 5)
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    .join('; ');

export const successShape = defineCheck({
  name: 'envelope.success-shape',
  title: 'valid calls answer 200 with the success envelope {ok: true, data: object, meta: object}',
  severity: 'MUST',
  section: 'Success envelope (every JSON success response)',
  tags: ['envelope'],
  mutating: false,
  async run(ctx) {
    for (const { route, ex } of await successSamples(ctx)) {
      const call = `${route.method} ${route.path}`;
      if (ex.status === ERROR_TABLE.forbidden.status || ex.status === ERROR_TABLE.rate_limited.status) {
        ctx.note(`${call} answered ${ex.status} (access lacks the right, or rate limited): not judged`);
        continue;
      }
      if (!ctx.expect.status(ex, 200, `a valid ${call} answers 200`)) continue;
      const parsed = SuccessShape.safeParse(ex.json);
      ctx.expect.that(parsed.success, {
        expected: `${call} answers with the success envelope`,
        observed: parsed.error ? issues(parsed.error) : '',
        exchange: ex,
      });
    }
  },
});

export const metaFields = defineCheck({
  name: 'envelope.meta-fields',
  title: 'meta of every success carries requestId, version and at (date-time); requestIds are unique',
  severity: 'MUST',
  section: 'Meta',
  tags: ['envelope', 'meta'],
  mutating: false,
  async run(ctx) {
    const seen = new Map<string, string>();
    const successes = (await successSamples(ctx))
      .filter((s) => s.ex.status === 200)
      .map((s) => ({ call: `${s.route.method} ${s.route.path}`, ex: s.ex }));
    for (const { call, ex } of successes) {
      const parsed = MetaFields.safeParse((ex.json as { meta?: unknown } | undefined)?.meta);
      ctx.expect.that(parsed.success, {
        expected: `${call}: meta has requestId (string), version (string), at (date-time) and only well-typed optional fields`,
        observed: parsed.error ? issues(parsed.error) : '',
        exchange: ex,
      });
    }
    const errors = (await errorProbes(ctx)).map((p) => ({ call: p.what, ex: p.ex }));
    for (const { call, ex } of [...successes, ...errors]) {
      const id = (ex.json as { meta?: { requestId?: unknown } } | undefined)?.meta?.requestId;
      if (typeof id !== 'string') continue;
      const earlier = seen.get(id);
      ctx.expect.that(earlier === undefined, {
        expected: 'every call gets its own meta.requestId',
        observed: `${call} repeats the requestId ${id} of ${earlier}`,
        exchange: ex,
      });
      seen.set(id, call);
    }
  },
});

/** Writes answered per route at most (the first ones): their shape does not change from call to call. */
const WRITES_PER_ROUTE = 3;

/** The run's 200 answers to the interface's POST operations under the current version, a few per route. */
function writesOfTheRun(ctx: CheckContext): { route: RouteDef; ex: Exchange }[] {
  const bases = [ctx.target.baseUrl, ...(ctx.target.altBaseUrl ? [ctx.target.altBaseUrl] : [])];
  const taken = new Map<RouteDef, number>();
  const out: { route: RouteDef; ex: Exchange }[] = [];
  for (const { ex } of ctx.exchanges()) {
    if (ex.method !== 'POST' || ex.status !== 200 || !currentVersion(ex)) continue;
    const route = routeOf(ex, bases);
    // Answers whose fields the interface shows (a creation, an issued key): a registration's fields are "not
    // shown", and its replay may hold back the key the document lists (issued exactly once).
    if (!route || route.fieldsNotShown || READ_ONLY_POST_IDS.has(route.id)) continue;
    if ((taken.get(route) ?? 0) >= WRITES_PER_ROUTE) continue;
    taken.set(route, (taken.get(route) ?? 0) + 1);
    out.push({ route, ex });
  }
  return out;
}

export const responseSchemaOpenApi = defineCheck({
  name: 'envelope.response-schema-openapi',
  title:
    "every success matches the response schema of its operation in the target's own openapi.json: the reads, and the writes the run made whose fields the interface shows (creations, issued keys); a list answer with its list emptied (count 0) too",
  severity: 'MUST',
  section: 'GET /api/public/v1/openapi.json',
  tags: ['envelope', 'openapi', 'schema'],
  mutating: false,
  // After the other checks: the writes they made are judged too.
  judgesRun: true,
  async run(ctx) {
    const schemas = await responseSchemas(ctx);
    for (const { route, ex } of [...(await successSamples(ctx)), ...writesOfTheRun(ctx)]) {
      if (ex.status !== 200) continue;
      const validate = schemas.forOperation(route.method, route.path);
      if (!validate) {
        ctx.note(`openapi.json has no JSON 200 schema for ${route.method} ${route.path}`);
        continue;
      }
      ctx.expect.that(validate(ex.json) as boolean, {
        expected: `${route.method} ${route.path} matches its 200 response schema in openapi.json`,
        observed: describeAjvErrors(validate),
        exchange: ex,
      });
      const empty = emptiedList(route, ex.json);
      if (empty !== undefined && validate(ex.json))
        ctx.expect.that(validate(empty) as boolean, {
          expected: `${route.method} ${route.path}: the same answer with its list empty (count 0: a filter matching nothing, a tenant without entries) matches its 200 response schema too`,
          observed: describeAjvErrors(validate),
          exchange: ex,
        });
    }
  },
});

export const failureSchemaOpenApi = defineCheck({
  name: 'envelope.failure-schema-openapi',
  title:
    "every provoked failure matches the response its operation documents for that status in the target's own openapi.json",
  severity: 'MUST',
  section: 'GET /api/public/v1/openapi.json',
  tags: ['envelope', 'openapi', 'schema', 'errors'],
  mutating: false,
  async run(ctx) {
    const schemas = await responseSchemas(ctx);
    for (const { what, ex } of await errorProbes(ctx)) {
      if (ex.status < 400 || ex.json === undefined) continue;
      const pathname = new URL(ex.url).pathname;
      const path = pathname.slice(Math.max(0, pathname.indexOf(BASE_PATH)));
      // A document that describes no failure (or not as JSON) is not judged here: only what it says is.
      const validate = schemas.forStatus(ex.method, path, ex.status);
      if (!validate) {
        ctx.note(`openapi.json documents no JSON ${ex.status} (nor its range or default) for ${ex.method} ${path}`);
        continue;
      }
      ctx.expect.that(validate(ex.json) as boolean, {
        expected: `${what}: the ${ex.status} answer matches the response openapi.json documents for it`,
        observed: describeAjvErrors(validate),
        exchange: ex,
      });
    }
  },
});

export const responseSchemaContract = defineCheck({
  name: 'envelope.response-schema-contract',
  title: "every success's data has the fields and types the interface lists for the endpoint",
  severity: 'MUST',
  section: 'Resources and their fields',
  tags: ['envelope', 'schema'],
  mutating: false,
  async run(ctx) {
    for (const { route, ex } of await successSamples(ctx)) {
      // Where the interface shows no fields (audit log, webhook registration, the simulator's additions),
      // data is the deployment's choice: the envelope checks judge those answers, this one does not.
      if (ex.status !== 200 || !route.data || route.fieldsNotShown || route.addition) continue;
      const parsed = route.data.safeParse((ex.json as { data?: unknown } | undefined)?.data);
      ctx.expect.that(parsed.success, {
        expected: `${route.method} ${route.path}: data has the fields the interface lists`,
        observed: parsed.error ? issues(parsed.error) : '',
        exchange: ex,
      });
    }
  },
});

export const requestIdHeader = defineCheck({
  name: 'envelope.request-id-header',
  title:
    'a header naming the request id (X-Request-Id, Request-Id), where the deployment sends one, names meta.requestId',
  severity: 'SHOULD',
  section: 'Meta',
  tags: ['envelope', 'meta'],
  mutating: false,
  async run(ctx) {
    const answers = [...(await successSamples(ctx)).map((s) => s.ex), ...(await errorProbes(ctx)).map((p) => p.ex)];
    for (const ex of answers) {
      // The interface names no such header: only one that is sent is judged.
      const problem = requestIdHeaderProblem(ex);
      ctx.expect.that(problem === undefined, {
        expected: `${ex.method} ${new URL(ex.url).pathname}: a request-id header repeats meta.requestId (so logs and support queries match)`,
        observed: problem ?? '',
        exchange: ex,
      });
    }
  },
});

export const envelopeChecks = [
  successShape,
  metaFields,
  responseSchemaOpenApi,
  failureSchemaOpenApi,
  responseSchemaContract,
  requestIdHeader,
];
