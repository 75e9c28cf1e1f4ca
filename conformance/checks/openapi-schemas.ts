// openapi.json's schemas and parameter lists hold as JSON Schema 2020-12 and OpenAPI 3.1 define them (the
// OpenAPI 3.1 schema leaves both unjudged), and its failure schemas let every status carry its codes.
import { ERROR_CODES, ERROR_TABLE } from '../../simulator/contract/errors.ts';
import { interfaceRoutes } from '../rules/interface-routes.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { listed } from './support/listed.ts';
import {
  deref,
  type OpenApiLike,
  operationLocation,
  operationsOf,
  pointer,
  requireOpenApi,
  statusContent,
} from './support/openapi.ts';
import { schemaMetaVerdict } from './support/openapi-schema-meta.ts';
import { allowedValues } from './support/openapi-schema-values.ts';

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

export const openApiSchemasValid = defineCheck({
  name: 'openapi.schemas-valid',
  title:
    "every Schema Object of openapi.json (components, parameters, headers, request and response bodies) is valid JSON Schema 2020-12, OpenAPI 3.1's dialect: keywords of their type (exclusiveMinimum a number), patterns that are regular expressions",
  severity: 'MUST',
  section: 'GET /api/public/v1/openapi.json',
  tags: ['openapi', 'discovery'],
  mutating: false,
  async run(ctx: CheckContext) {
    const { ex, doc } = await requireOpenApi(ctx);
    // An OpenAPI 3.0 document's schemas are of 3.0's own dialect; discovery.openapi-valid fails its version.
    if (!(typeof doc.openapi === 'string' && /^3\.1\./.test(doc.openapi)))
      ctx.skip(`openapi.json declares openapi ${JSON.stringify(doc.openapi)}, not 3.1.x (see discovery.openapi-valid)`);
    const verdict = schemaMetaVerdict(ex.text || JSON.stringify(doc), doc);
    ctx.note(`judged ${verdict.judged} Schema Objects against the JSON Schema 2020-12 meta-schema`);
    if (verdict.notJudged.length) ctx.note(`not judged: ${listed(verdict.notJudged)}`);
    ctx.expect.that(verdict.invalid.length === 0, {
      expected:
        'every Schema Object of openapi.json is valid against the JSON Schema 2020-12 meta-schema (OpenAPI 3.1 §4.8.24: its dialect)',
      observed: listed(verdict.invalid.map((i) => `openapi.json${i.at}: ${i.error}`)),
      exchange: ex,
    });
  },
});

/**
 * The parameters an operation (or a path item) lists more than once by name and location: OpenAPI 3.1
 * §4.8.10 "The list MUST NOT include duplicated parameters" (an operation's own overriding its path
 * item's is legal). References are followed; a list referenced twice from one operation counts twice.
 * @example duplicateParameters(doc) // ['GET /api/public/v1/connectors: query category (2 times)']
 */
export function duplicateParameters(doc: OpenApiLike): string[] {
  const out: string[] = [];
  const judge = (label: string, list: unknown, at: string[]) => {
    if (!Array.isArray(list)) return;
    const counts = new Map<string, number>();
    list.forEach((p, i) => {
      const value = deref(doc, p, [...at, String(i)]).value;
      if (!isObject(value) || typeof value.name !== 'string' || typeof value.in !== 'string') return;
      // OpenAPI 3.1: "Parameter names are case sensitive" (headers too): only the same spelling repeats one.
      const key = `${value.in} ${value.name}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    });
    for (const [key, n] of counts) if (n > 1) out.push(`${label}: ${key} (${n} times)`);
  };
  const items = new Set<object>();
  for (const { method, path, op } of operationsOf(doc)) {
    judge(`${method} ${path}`, op.parameters, []);
    const loc = operationLocation(doc, method, path);
    if (loc && !items.has(loc.item)) {
      items.add(loc.item);
      judge(`path item ${path}`, loc.item.parameters, loc.itemAt);
    }
  }
  return out;
}

export const openApiParametersUnique = defineCheck({
  name: 'openapi.parameters-unique',
  title:
    'no operation or path item of openapi.json lists the same parameter (name and location) twice (OpenAPI 3.1: "The list MUST NOT include duplicated parameters")',
  severity: 'MUST',
  section: 'GET /api/public/v1/openapi.json',
  tags: ['openapi', 'discovery'],
  mutating: false,
  async run(ctx: CheckContext) {
    const { ex, doc } = await requireOpenApi(ctx);
    const dups = duplicateParameters(doc);
    ctx.expect.that(dups.length === 0, {
      expected:
        "every parameter list of openapi.json names each parameter once by name and location (an operation's own may override its path item's)",
      observed: listed(dups),
      exchange: ex,
    });
  },
});

/** The statuses of the Errors table, each with its codes: 409 carries two. */
const CODES_BY_STATUS = new Map<number, string[]>();
for (const code of ERROR_CODES) {
  const { status } = ERROR_TABLE[code];
  CODES_BY_STATUS.set(status, [...(CODES_BY_STATUS.get(status) ?? []), code]);
}

/**
 * Failure responses of the interface's operations whose documented error.code enumerates values none of
 * which the Errors table pairs with the status they are documented for: a 429 that cannot say rate_limited.
 * Authenticated endpoints "may answer with the statuses 400, 401, …, 500", so every status their responses
 * cover (by code, range or default) is judged; a public endpoint's only where it names the status itself.
 * @example failureCodeGaps(doc) // [{ status: 429, codes: ['rate_limited'], operations: ['GET …/providers'], documented: [...] }]
 */
export function failureCodeGaps(doc: OpenApiLike) {
  const gaps = new Map<string, { status: number; codes: string[]; operations: string[]; documented: string[] }>();
  /** Codes outside the Errors table a documented enumeration lists, by where it stands. */
  const foreign = new Map<string, { codes: string[]; operations: Set<string> }>();
  let judged = 0;
  for (const route of interfaceRoutes()) {
    const loc = operationLocation(doc, route.method, route.path);
    const responses = loc ? deref(doc, loc.op.responses, [...loc.at, 'responses']).value : undefined;
    if (!isObject(responses)) continue;
    for (const [status, codes] of CODES_BY_STATUS) {
      if (!route.auth && !(String(status) in responses)) continue;
      const found = statusContent(doc, route.method, route.path, status);
      const type = Object.keys(found?.content ?? {}).find((t) => /^application\/(?:[\w.+-]+\+)?json/.test(t));
      const schema = type ? found?.content[type]?.schema : undefined;
      if (!found || !type || schema === undefined) continue;
      const allowed = allowedValues(doc, schema, ['error', 'code']);
      if (!allowed) continue; // error.code is left a free string: any code may stand in it
      judged++;
      const outside = [...allowed].filter((v) => !(ERROR_CODES as readonly unknown[]).includes(v));
      if (outside.length) {
        const at = `${pointer(...found.at, type)}`;
        const entry = foreign.get(at) ?? { codes: outside.map((v) => JSON.stringify(v)), operations: new Set() };
        entry.operations.add(`${route.method} ${route.path}`);
        foreign.set(at, entry);
      }
      if (codes.some((c) => allowed.has(c))) continue;
      const documented = [...allowed].map((v) => JSON.stringify(v));
      const key = `${status} ${pointer(...found.at, type)} ${documented.join()}`;
      const gap = gaps.get(key) ?? { status, codes, operations: [], documented };
      gap.operations.push(`${route.method} ${route.path}`);
      gaps.set(key, gap);
    }
  }
  return {
    gaps: [...gaps.values()],
    foreign: [...foreign].map(([at, f]) => ({ at, codes: f.codes, operations: [...f.operations] })),
    judged,
  };
}

export const openApiErrorCodesComplete = defineCheck({
  name: 'openapi.error-codes-complete',
  title:
    'where openapi.json enumerates error.code in the failure responses of interface operations, each documented status can carry a code the Errors table pairs with it (429 rate_limited, 500 internal, …), and no code outside the table is listed',
  severity: 'MUST',
  section: 'Errors',
  tags: ['openapi', 'errors'],
  mutating: false,
  async run(ctx: CheckContext) {
    const { ex, doc } = await requireOpenApi(ctx);
    const { gaps, foreign, judged } = failureCodeGaps(doc);
    if (judged === 0)
      ctx.skip('openapi.json leaves error.code a free string in every failure it documents: nothing to judge');
    ctx.note(`judged ${judged} documented failure responses whose error.code is an enumeration`);
    for (const g of gaps)
      ctx.fail({
        expected: `openapi.json lets a ${g.status} failure carry error.code ${g.codes.join(' or ')} (Errors: "${g.codes.join(', ')} | ${g.status}"; Failure envelope: "one of the codes in the Errors part")`,
        observed: `the ${g.status} response of ${listed(g.operations)} documents error.code as one of ${g.documented.join(', ')}`,
        exchange: ex,
      });
    for (const f of foreign)
      ctx.fail({
        expected:
          'openapi.json enumerates no error.code outside the Errors table (Failure envelope: "one of the codes in the Errors part")',
        observed: `openapi.json${f.at} also lists ${f.codes.join(', ')} (${listed(f.operations)})`,
        exchange: ex,
      });
  },
});

export const openApiSchemaChecks = [openApiSchemasValid, openApiParametersUnique, openApiErrorCodesComplete];
