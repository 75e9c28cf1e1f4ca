// A small YAML 1.2 emitter for the downloadable description: block mappings and sequences, every string
// double-quoted (JSON escapes are valid in YAML double-quoted scalars), numbers, booleans and null plain.
const scalar = (v: unknown): string =>
  typeof v === 'string' ? JSON.stringify(v) : v === null || v === undefined ? 'null' : String(v);

const isNode = (v: unknown): v is object => v !== null && typeof v === 'object';
const empty = (v: object): boolean => (Array.isArray(v) ? v.length === 0 : Object.keys(v).length === 0);

function emit(value: unknown, indent: string, lines: string[]): void {
  if (Array.isArray(value)) {
    for (const item of value) {
      if (isNode(item) && !empty(item)) {
        const sub: string[] = [];
        emit(item, `${indent}  `, sub);
        lines.push(`${indent}- ${(sub[0] ?? '').trimStart()}`, ...sub.slice(1));
      } else lines.push(`${indent}- ${isNode(item) ? (Array.isArray(item) ? '[]' : '{}') : scalar(item)}`);
    }
    return;
  }
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (v === undefined) continue;
    if (isNode(v) && !empty(v)) {
      lines.push(`${indent}${JSON.stringify(k)}:`);
      emit(v, `${indent}  `, lines);
    } else lines.push(`${indent}${JSON.stringify(k)}: ${isNode(v) ? (Array.isArray(v) ? '[]' : '{}') : scalar(v)}`);
  }
}

export function toYaml(doc: unknown): string {
  const lines: string[] = [];
  emit(doc, '', lines);
  return `${lines.join('\n')}\n`;
}
