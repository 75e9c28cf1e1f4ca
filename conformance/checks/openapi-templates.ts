// openapi.json declares the path parameter of every template expression of its paths: OpenAPI 3.1 §4.8.8.2
// ("Each template expression in the path MUST correspond to a path parameter that is included in the Path
// Item itself and/or in each of the Path Item's Operations"). The OpenAPI 3.1 schema does not judge it, and
// a generated client cannot fill `/connections/{id}` without it.
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { listed } from './support/listed.ts';
import { deref, HTTP_METHODS, type OpenApiLike, requireOpenApi } from './support/openapi.ts';
import { parametersOfOwners } from './support/openapi-parameters.ts';

/**
 * Every operation of the document whose path has a template expression no `in: path` parameter of that
 * name declares (neither the operation's nor its path item's), with the expressions left undeclared.
 * @example undeclaredTemplateParameters({ paths: { '/c/{id}': { get: {} } } }) // ['GET /c/{id}: {id}']
 */
export function undeclaredTemplateParameters(doc: OpenApiLike): string[] {
  const paths = doc.paths;
  if (!paths || typeof paths !== 'object' || Array.isArray(paths)) return [];
  const out: string[] = [];
  for (const key of Object.keys(paths)) {
    const expressions = [...key.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] ?? '');
    if (expressions.length === 0) continue;
    const item = deref(doc, paths[key], ['paths', key]);
    if (!item.value || typeof item.value !== 'object') continue;
    const ops = item.value as Record<string, unknown>;
    for (const m of HTTP_METHODS) {
      if (!ops[m] || typeof ops[m] !== 'object') continue;
      const declared = parametersOfOwners(doc, [
        { owner: ops[m], at: [...item.at, m] },
        { owner: ops, at: item.at },
      ]).filter((p) => p.in === 'path');
      const missing = expressions.filter((e) => !declared.some((p) => p.name === e));
      if (missing.length) out.push(`${m.toUpperCase()} ${key}: ${missing.map((e) => `{${e}}`).join(', ')}`);
    }
  }
  return out;
}

export const pathParametersDeclared = defineCheck({
  name: 'openapi.path-parameters-declared',
  title:
    "every template expression of a path of openapi.json ({id}) has an `in: path` parameter of its name on each operation of that path (its own or its path item's; OpenAPI 3.1: MUST)",
  severity: 'MUST',
  section: 'GET /api/public/v1/openapi.json',
  tags: ['openapi', 'discovery'],
  mutating: false,
  async run(ctx: CheckContext) {
    const { ex, doc } = await requireOpenApi(ctx);
    const missing = undeclaredTemplateParameters(doc);
    ctx.expect.that(missing.length === 0, {
      expected:
        'each template expression of a path corresponds to a path parameter of the path item or each of its operations (OpenAPI 3.1 §4.8.8.2, the description "as a JSON object (OpenAPI 3.1)")',
      observed: `no path parameter declared for ${listed(missing)}`,
      exchange: ex,
    });
  },
});
