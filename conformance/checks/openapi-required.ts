// openapi.json marks required what the interface requires, and nothing more: request parameters and body
// fields (derived from the contract's routes and zod schemas), and the answers' fields the interface's
// tables mark required (the envelopes and Meta, "Required: yes"; CapabilityDecision, "all fields required").
import type { z } from 'zod';
import { CapabilityDecision } from '../../simulator/contract/catalog.ts';
import { Meta } from '../../simulator/contract/envelope.ts';
import type { RouteDef } from '../../simulator/contract/route-def.ts';
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import type { FieldType, RequestField } from '../generated/request-fields.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { errorProbes } from './support/error-probes.ts';
import { requireOpenApi } from './support/openapi.ts';
import { limitedFields } from './support/openapi-limits.ts';
import { judgeRequired, type RequiredFinding } from './support/openapi-required-judge.ts';
import { responseSchemas } from './support/response-schemas.ts';
import { successSamples } from './support/samples.ts';

/** A value the contract accepts for a field: a boundary case's first valid one, else one of its type. */
function firstValid(route: RouteDef, field: RequestField): unknown {
  const limited = limitedFields().find((f) => f.route === route && f.in === field.in && f.name === field.name);
  const valid = limited?.cases.find((c) => c.valid);
  return valid ? valid.value : ofType(field.type);
}
function ofType(t: FieldType): unknown {
  if (t.type === 'string') return 'ab'.padEnd(Math.max(2, t.min ?? 0), 'x');
  if (t.type === 'enum') return t.values[0];
  if (t.type === 'integer') return t.min ?? 0;
  if (t.type === 'array') return Array.from({ length: Math.max(1, t.min ?? 0) }, () => ofType(t.item));
  return 'value';
}

async function findings(
  ctx: CheckContext,
): Promise<{ ex: Awaited<ReturnType<typeof requireOpenApi>>['ex']; all: RequiredFinding[] }> {
  const { ex, doc } = await requireOpenApi(ctx);
  const { all, notJudged } = await ctx.shared('openapi-required', async () => {
    const why: string[] = [];
    return { all: judgeRequired(doc, firstValid, (w) => why.push(w)), notJudged: why };
  });
  // Bodies whose schemas refer to themselves (a $ref cycle) are said, not judged.
  for (const w of notJudged) ctx.note(w);
  return { ex, all };
}

export const openApiRequiredNotNarrower = defineCheck({
  name: 'openapi.required-not-narrower',
  title:
    'openapi.json requires no request parameter or body field of an interface operation that the interface leaves optional or does not list (credentials, tenant, Idempotency-Key where marked, Service-Version excepted)',
  severity: 'MUST',
  section: 'Endpoints',
  tags: ['openapi'],
  mutating: false,
  async run(ctx) {
    const { ex, all } = await findings(ctx);
    for (const f of all.filter((x) => x.kind === 'narrower'))
      ctx.fail({
        expected: `openapi.json documents ${f.route.method} ${f.route.path} as the interface does: ${f.value} is not required`,
        observed: `openapi.json${f.at} marks ${f.value} required`,
        exchange: ex,
      });
  },
});

/** Meta's required fields (requestId, version, at). */
const metaKeys = () =>
  Object.entries((Meta as unknown as { def: { shape?: Record<string, z.ZodType> } }).def.shape ?? {})
    .filter(([, v]) => !['optional', 'default'].includes((v as unknown as { def: { type: string } }).def.type))
    .map(([k]) => k);

/** The answer's fields the interface marks required, as paths into the envelope of a route's answer. */
function requiredAnswerPaths(route: RouteDef): string[][] {
  const keys = (s: z.ZodType) =>
    Object.entries((s as unknown as { def: { shape?: Record<string, z.ZodType> } }).def.shape ?? {})
      .filter(([, v]) => !['optional', 'default'].includes((v as unknown as { def: { type: string } }).def.type))
      .map(([k]) => k);
  const paths = [['ok'], ['data'], ['meta'], ...keys(Meta).map((k) => ['meta', k])];
  // Where the interface's "all fields required" resources sit in the route's data (by identity).
  const walk = (s: z.ZodType | undefined, at: string[], depth = 0) => {
    if (!s || depth > 4) return;
    if (s === CapabilityDecision) for (const k of keys(s)) paths.push([...at, k]);
    const shape = (s as unknown as { def: { shape?: Record<string, z.ZodType> } }).def.shape;
    for (const [k, v] of Object.entries(shape ?? {})) walk(v, [...at, k], depth + 1);
  };
  walk(route.data, ['data']);
  return paths;
}

function without(value: unknown, path: string[]): unknown {
  const copy = structuredClone(value) as Record<string, unknown>;
  let node: Record<string, unknown> | undefined = copy;
  for (const k of path.slice(0, -1)) node = node?.[k] as Record<string, unknown> | undefined;
  const last = path.at(-1);
  if (!node || typeof node !== 'object' || last === undefined || !(last in node)) return undefined;
  delete node[last];
  return copy;
}

export const openApiRequiredNotWider = defineCheck({
  name: 'openapi.required-not-wider',
  title:
    "openapi.json marks required what the interface requires: the key of a 'yes + key' call, the request body (required: true) and its required fields, query parameters, and the answers' required fields (envelope, Meta, CapabilityDecision; the failure envelope's ok, error.code, error.message, meta)",
  severity: 'SHOULD',
  section: 'Endpoints',
  tags: ['openapi'],
  mutating: false,
  async run(ctx) {
    const { ex, all } = await findings(ctx);
    for (const f of all.filter((x) => x.kind === 'wider'))
      ctx.fail({
        expected: `openapi.json documents ${f.route.method} ${f.route.path} as the interface does: ${f.value} is required`,
        observed: `openapi.json${f.at} leaves ${f.value} optional`,
        exchange: ex,
      });
    const schemas = await responseSchemas(ctx);
    for (const { route, ex: answer } of await successSamples(ctx)) {
      // An answer the interface shows only as a sample call is the deployment's to describe.
      if (route.fieldsNotShown) continue;
      const validate = schemas.forOperation(route.method, route.path);
      if (answer.status !== 200 || !validate || answer.json === undefined || !validate(answer.json)) continue;
      const optional = requiredAnswerPaths(route).filter((p) => {
        const short = without(answer.json, p);
        return short !== undefined && validate(short);
      });
      if (optional.length)
        ctx.fail({
          expected: `openapi.json documents the answer of ${route.method} ${route.path} with the fields the interface requires`,
          observed: `its schema accepts the answer without ${optional.map((p) => p.join('.')).join(', ')}`,
          exchange: answer,
        });
    }
    // The failure envelope's required fields too ("ok", "error.code", "error.message", "meta": Required yes),
    // held to the failure each provoked status documents.
    const failurePaths = [
      ['ok'],
      ['error'],
      ['error', 'code'],
      ['error', 'message'],
      ['meta'],
      ...metaKeys().map((k) => ['meta', k]),
    ];
    const seen = new Set<string>();
    for (const { ex } of await errorProbes(ctx)) {
      if (ex.status < 400 || ex.json === undefined) continue;
      const pathname = new URL(ex.url).pathname;
      const path = pathname.slice(Math.max(0, pathname.indexOf(BASE_PATH)));
      const validate = schemas.forStatus(ex.method, path, ex.status);
      if (!validate?.(ex.json)) continue;
      const optional = failurePaths.filter((p) => {
        const short = without(ex.json, p);
        return short !== undefined && validate(short);
      });
      const key = optional.join(';');
      if (!optional.length || seen.has(key)) continue;
      seen.add(key);
      ctx.fail({
        expected: `openapi.json documents the ${ex.status} failure of ${ex.method} ${path} with the fields the failure envelope requires`,
        observed: `its schema accepts the answer without ${optional.map((p) => p.join('.')).join(', ')}`,
        exchange: ex,
      });
    }
  },
});

export const openApiRequiredChecks = [openApiRequiredNotNarrower, openApiRequiredNotWider];
