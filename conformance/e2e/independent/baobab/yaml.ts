// A small YAML 1.2 writer for the downloadable description (block style; strings double-quoted, which
// YAML reads with JSON's escapes), so no YAML library is needed.
const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_.$-]*$/;

function scalar(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  return String(v);
}

function key(k: string): string {
  return PLAIN_KEY.test(k) && !['true', 'false', 'null', 'yes', 'no', 'on', 'off'].includes(k.toLowerCase())
    ? k
    : JSON.stringify(k);
}

function isEmpty(v: unknown): boolean {
  return (
    (Array.isArray(v) && v.length === 0) ||
    (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0)
  );
}

function lines(v: unknown, indent: string): string[] {
  if (Array.isArray(v)) {
    if (v.length === 0) return [`${indent}[]`];
    return v.flatMap((item) => {
      if (item !== null && typeof item === 'object' && !isEmpty(item)) {
        const inner = lines(item, `${indent}  `);
        const first = inner[0] ?? '';
        return [`${indent}- ${first.trimStart()}`, ...inner.slice(1)];
      }
      return [`${indent}- ${isEmpty(item) ? (Array.isArray(item) ? '[]' : '{}') : scalar(item)}`];
    });
  }
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>);
    if (entries.length === 0) return [`${indent}{}`];
    return entries.flatMap(([k, val]) => {
      if (val !== null && typeof val === 'object' && !isEmpty(val))
        return [`${indent}${key(k)}:`, ...lines(val, `${indent}  `)];
      return [`${indent}${key(k)}: ${isEmpty(val) ? (Array.isArray(val) ? '[]' : '{}') : scalar(val)}`];
    });
  }
  return [`${indent}${scalar(v)}`];
}

export function toYaml(doc: unknown): string {
  return `${lines(doc, '').join('\n')}\n`;
}
