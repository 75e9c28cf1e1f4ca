// A block-style YAML writer for the OpenAPI download (every scalar a double-quoted JSON string, so no
// value is ever read back as another type; YAML 1.2 double-quoted escapes are JSON's).
function scalar(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(String(v));
}

function lines(v: unknown, indent: string): string[] {
  if (Array.isArray(v)) {
    if (v.length === 0) return [`${indent}[]`];
    return v.flatMap((item) => {
      if (item !== null && typeof item === 'object' && Object.keys(item).length > 0) {
        const inner = lines(item, `${indent}  `);
        return [`${indent}- ${(inner[0] ?? '').trimStart()}`, ...inner.slice(1)];
      }
      return [`${indent}- ${block(item, indent)}`];
    });
  }
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>);
    if (entries.length === 0) return [`${indent}{}`];
    return entries.flatMap(([k, val]) => {
      const key = `${indent}${JSON.stringify(k)}:`;
      if (val !== null && typeof val === 'object' && (Array.isArray(val) ? val.length : Object.keys(val).length) > 0) {
        return [key, ...lines(val, `${indent}  `)];
      }
      return [`${key} ${block(val, indent)}`];
    });
  }
  return [`${indent}${scalar(v)}`];
}

function block(v: unknown, _indent: string): string {
  if (Array.isArray(v)) return '[]';
  if (v !== null && typeof v === 'object') return '{}';
  return scalar(v);
}

export function toYaml(v: unknown): string {
  return `${lines(v, '').join('\n')}\n`;
}
