// A small YAML emitter for the downloadable document (the app ships `yaml.safe_dump` output; no YAML
// package may be added here). Strings are written as JSON-quoted scalars, which YAML 1.2 reads unchanged.

const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_.$-]*$/;
const RESERVED = /^(y|n|yes|no|on|off|true|false|null|~)$/i;

function key(k: string): string {
  return PLAIN_KEY.test(k) && !RESERVED.test(k) ? k : JSON.stringify(k);
}

function scalar(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  return String(v);
}

const isEmpty = (v: unknown): boolean =>
  (Array.isArray(v) && v.length === 0) ||
  (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);

function emit(value: unknown, indent: string, lines: string[]): void {
  if (Array.isArray(value)) {
    for (const item of value) {
      if (typeof item === 'object' && item !== null && !isEmpty(item)) {
        const sub: string[] = [];
        emit(item, `${indent}  `, sub);
        const first = sub[0] ?? '';
        lines.push(`${indent}- ${first.slice(indent.length + 2)}`, ...sub.slice(1));
      } else {
        lines.push(`${indent}- ${isEmpty(item) ? JSON.stringify(item) : scalar(item)}`);
      }
    }
    return;
  }
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (typeof v === 'object' && v !== null && !isEmpty(v)) {
      lines.push(`${indent}${key(k)}:`);
      emit(v, `${indent}  `, lines);
    } else {
      lines.push(`${indent}${key(k)}: ${isEmpty(v) ? JSON.stringify(v) : scalar(v)}`);
    }
  }
}

/** The YAML text of a JSON document (objects as block mappings, arrays as block sequences). */
export function toYaml(doc: unknown): string {
  const lines: string[] = [];
  emit(doc, '', lines);
  return `${lines.join('\n')}\n`;
}
