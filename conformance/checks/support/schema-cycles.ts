// A schema that reaches itself again without descending into the instance (`Node: {allOf: [{$ref: Node}]}`,
// `Loop1 -> Loop2 -> Loop1`) makes Ajv's validator call itself on the same value for ever: a stack overflow.

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** Keywords that apply their subschemas to the same instance (no descent into a property or item). */
const IN_PLACE = ['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'dependentSchemas'] as const;

/** How deep the walk goes: a hostile document may nest in-place subschemas very deep as well. */
const MAX_DEPTH = 64;

const resolve = (doc: unknown, pointerText: string): unknown =>
  pointerText
    .replace(/^#?\/?/, '')
    .split('/')
    .filter((p) => p !== '')
    .map((p) => decodeURIComponent(p).replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, k) => (node && typeof node === 'object' ? (node as Json)[k] : undefined), doc);

/**
 * Breaks the in-place cycles of the schema at `at` (a JSON pointer into `doc`, which is changed: pass a copy):
 * a local `$ref` or in-place keyword leading back to a schema already on its path is replaced by `true`, since
 * `A = X and A` asks nothing beyond X; nesting deeper than MAX_DEPTH is cut the same way. Returns how many were
 * cut, so the caller can say so; validating afterwards ends.
 * @example const d = { a: { required: ['x'], allOf: [{ $ref: '#/a' }] } }; breakInPlaceCycles(d, '/a') // 1
 */
export function breakInPlaceCycles(doc: unknown, at: string): number {
  const onPath = new Set<unknown>();
  let cut = 0;
  const walk = (schema: unknown, depth: number): boolean => {
    if (!isObject(schema)) return false;
    if (depth > MAX_DEPTH || onPath.has(schema)) return true;
    onPath.add(schema);
    const ref = schema.$ref;
    if (typeof ref === 'string' && ref.startsWith('#') && walk(resolve(doc, ref), depth + 1)) {
      delete schema.$ref;
      cut++;
    }
    for (const k of IN_PLACE) {
      const v = schema[k];
      if (Array.isArray(v))
        v.forEach((b, i) => {
          if (walk(b, depth + 1)) {
            v[i] = true;
            cut++;
          }
        });
      else if (k === 'dependentSchemas' && isObject(v)) {
        for (const [name, b] of Object.entries(v))
          if (walk(b, depth + 1)) {
            v[name] = true;
            cut++;
          }
      } else if (walk(v, depth + 1)) {
        schema[k] = true;
        cut++;
      }
    }
    onPath.delete(schema);
    return false;
  };
  walk(resolve(doc, at), 0);
  return cut;
}
