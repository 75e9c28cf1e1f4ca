// A small YAML writer for the downloadable OpenAPI files (JSON-compatible values only, block style).
const PLAIN = /^[A-Za-z_][A-Za-z0-9_ ./-]*$/;
const RESERVED = /^(true|false|null|yes|no|on|off|~)$/i;

function scalar(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  const s = String(v);
  if (PLAIN.test(s) && !RESERVED.test(s) && !s.endsWith(' ') && !s.includes(': ') && !s.includes(' #')) return s;
  return JSON.stringify(s);
}

function key(k: string): string {
  return PLAIN.test(k) && !RESERVED.test(k) && !k.includes(' ') ? k : JSON.stringify(k);
}

function isEmpty(v: unknown): boolean {
  return (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && v !== null && Object.keys(v).length === 0);
}

function emptyLiteral(v: unknown): string {
  return Array.isArray(v) ? '[]' : '{}';
}

function block(v: unknown, indent: number): string[] {
  const pad = ' '.repeat(indent);
  if (Array.isArray(v)) {
    const lines: string[] = [];
    for (const item of v) {
      if (typeof item === 'object' && item !== null && !isEmpty(item)) {
        const inner = block(item, indent + 2);
        lines.push(`${pad}- ${(inner[0] ?? '').trimStart()}`, ...inner.slice(1));
      } else {
        lines.push(`${pad}- ${isEmpty(item) ? emptyLiteral(item) : scalar(item)}`);
      }
    }
    return lines;
  }
  const lines: string[] = [];
  for (const [k, val] of Object.entries(v as Record<string, unknown>)) {
    if (val === undefined) continue;
    if (typeof val === 'object' && val !== null && !isEmpty(val)) {
      lines.push(`${pad}${key(k)}:`, ...block(val, indent + 2));
    } else {
      lines.push(`${pad}${key(k)}: ${isEmpty(val) ? emptyLiteral(val) : scalar(val)}`);
    }
  }
  return lines;
}

/** The document as YAML 1.2 text. */
export function toYaml(doc: Record<string, unknown>): string {
  return `${block(doc, 0).join('\n')}\n`;
}
