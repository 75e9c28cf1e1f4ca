// openapi.json "describes this interface": an example it gives for a parameter is a value that parameter takes.
// An example outside the parameter's own schema (a key example with a space and a `#` where the pattern allows
// neither) misleads every client generated or written from the document. OpenAPI 3.1 (§4.8.12.4) says an example
// SHOULD match its schema: a SHOULD here too.
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { listed } from './support/listed.ts';
import {
  deref,
  type OpenApiLike,
  operationLocation,
  operationsOf,
  pointer,
  requireOpenApi,
} from './support/openapi.ts';
import { responseSchemas } from './support/response-schemas.ts';

/** Examples judged at most (a document with thousands is judged by its first ones). */
const MAX_EXAMPLES = 200;

type Obj = Record<string, unknown>;

/** A parameter's examples, each with where it stands: `example`, `examples.<name>.value`, its schema's `examples`. */
function examplesOf(doc: unknown, param: Obj): { where: string; value: unknown }[] {
  const out: { where: string; value: unknown }[] = [];
  if ('example' in param) out.push({ where: 'example', value: param.example });
  for (const [name, raw] of Object.entries((param.examples as Obj | undefined) ?? {})) {
    const ex = deref(doc, raw, []).value as Obj | undefined;
    if (ex && 'value' in ex) out.push({ where: `examples.${name}`, value: ex.value });
  }
  const schema = deref(doc, param.schema, []).value as Obj | undefined;
  if (Array.isArray(schema?.examples))
    for (const [i, v] of schema.examples.entries()) out.push({ where: `schema.examples[${i}]`, value: v });
  return out;
}

/**
 * A parameter's value as it travels (query, path, header: text), read back as JSON where it is some: an example
 * written as the text sent (`"25"` for an integer `limit`) is that value, as many documents write them.
 */
function serialized(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

export const examplesMatch = defineCheck({
  name: 'openapi.examples-match-schemas',
  title: "an example openapi.json gives for a parameter is a value of that parameter's own schema",
  severity: 'SHOULD',
  section: 'GET /api/public/v1/openapi.json',
  tags: ['openapi'],
  mutating: false,
  async run(ctx: CheckContext) {
    const { ex, doc } = await requireOpenApi(ctx);
    const schemas = await responseSchemas(ctx);
    const wrong: string[] = [];
    let judged = 0;
    for (const op of operationsOf(doc)) {
      const loc = operationLocation(doc as OpenApiLike, op.method, op.path);
      if (!loc) continue;
      for (const [owner, ownerAt] of [
        [loc.op, loc.at],
        [loc.item, loc.itemAt],
      ] as const) {
        const params = (owner as { parameters?: unknown }).parameters;
        if (!Array.isArray(params)) continue;
        for (const [i, raw] of params.entries()) {
          const { value, at } = deref(doc, raw, [...ownerAt, 'parameters', String(i)]);
          const param = value as Obj | undefined;
          if (!param || typeof param !== 'object' || !param.schema || judged >= MAX_EXAMPLES) continue;
          const validate = schemas.at(pointer(...deref(doc, param.schema, [...at, 'schema']).at));
          if (!validate) continue;
          for (const e of examplesOf(doc, param)) {
            judged++;
            if (!validate(e.value) && !validate(serialized(e.value)))
              wrong.push(
                `${op.method} ${op.path} ${String(param.name)} ${e.where} ${JSON.stringify(e.value).slice(0, 60)}`,
              );
          }
        }
      }
    }
    if (!judged) ctx.skip('openapi.json gives no example for a parameter with a schema');
    ctx.note(`${judged} parameter example(s) judged`);
    ctx.expect.that(wrong.length === 0, {
      expected:
        "every parameter example openapi.json gives is a value of that parameter's schema (OpenAPI 3.1: an example SHOULD match its schema)",
      observed: `${wrong.length} do not: ${listed([...new Set(wrong)].slice(0, 6))}`,
      exchange: ex,
    });
  },
});
