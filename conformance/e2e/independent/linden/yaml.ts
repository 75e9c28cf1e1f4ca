// A small YAML 1.2 emitter (block style, every string double-quoted, which YAML reads as JSON strings), as
// PyYAML's safe_dump would give the downloadable description; enough for the OpenAPI document's data.
const plainKey = /^[A-Za-z_$][A-Za-z0-9_$.-]*$/;
const key = (k: string): string =>
  plainKey.test(k) && !['true', 'false', 'null', 'yes', 'no', 'on', 'off'].includes(k.toLowerCase())
    ? k
    : JSON.stringify(k);

function scalar(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  return String(v);
}

const isEmpty = (v: unknown): boolean =>
  Array.isArray(v) ? v.length === 0 : v !== null && typeof v === 'object' && Object.keys(v).length === 0;

function emit(v: unknown, indent: string, out: string[]): void {
  if (Array.isArray(v)) {
    for (const item of v) {
      if (item !== null && typeof item === 'object' && !isEmpty(item)) {
        const inner: string[] = [];
        emit(item, `${indent}  `, inner);
        // The first line of a nested mapping or list goes on the dash's line.
        out.push(`${indent}- ${(inner[0] ?? '').trimStart()}`, ...inner.slice(1));
      } else out.push(`${indent}- ${isEmpty(item) ? (Array.isArray(item) ? '[]' : '{}') : scalar(item)}`);
    }
    return;
  }
  for (const [k, val] of Object.entries(v as Record<string, unknown>)) {
    if (val === undefined) continue;
    if (val !== null && typeof val === 'object' && !isEmpty(val)) {
      out.push(`${indent}${key(k)}:`);
      emit(val, `${indent}  `, out);
    } else out.push(`${indent}${key(k)}: ${isEmpty(val) ? (Array.isArray(val) ? '[]' : '{}') : scalar(val)}`);
  }
}

export function toYaml(doc: unknown): string {
  const out: string[] = [];
  emit(doc, '', out);
  return `${out.join('\n')}\n`;
}
