// A small YAML emitter for the OpenAPI file (PyYAML's `safe_dump(sort_keys=False)` output shape): block maps and
// lists, every string double-quoted as JSON (valid YAML), so no value needs YAML's escaping rules.
type Value = null | boolean | number | string | Value[] | { [k: string]: Value };

function scalar(v: Value): string | undefined {
  if (v === null) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v) && v.length === 0) return '[]';
  if (!Array.isArray(v) && Object.keys(v).length === 0) return '{}';
  return undefined;
}

function emit(v: Value, indent: string, out: string[]): void {
  if (Array.isArray(v)) {
    for (const item of v) {
      const s = scalar(item);
      if (s !== undefined) out.push(`${indent}- ${s}`);
      else {
        const inner: string[] = [];
        emit(item, `${indent}  `, inner);
        out.push(`${indent}- ${(inner[0] ?? '').trimStart()}`, ...inner.slice(1));
      }
    }
    return;
  }
  if (v === null || typeof v !== 'object') return;
  for (const [k, child] of Object.entries(v)) {
    const s = scalar(child);
    if (s !== undefined) out.push(`${indent}${JSON.stringify(k)}: ${s}`);
    else {
      out.push(`${indent}${JSON.stringify(k)}:`);
      emit(child, `${indent}  `, out);
    }
  }
}

export function toYaml(doc: unknown): string {
  const out: string[] = [];
  emit(doc as Value, '', out);
  return `${out.join('\n')}\n`;
}
