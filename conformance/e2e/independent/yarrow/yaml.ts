// A small block-style YAML writer for the downloadable document (the JSON value types only; every string
// quoted as JSON, which YAML 1.2 reads unchanged).
function scalar(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  return String(v);
}

const keyOf = (k: string) => (/^[A-Za-z_][\w-]*$/.test(k) ? k : JSON.stringify(k));

export function toYaml(v: unknown, indent = ''): string {
  if (Array.isArray(v)) {
    if (v.length === 0) return `${indent}[]\n`;
    return v
      .map((x) => {
        if (x !== null && typeof x === 'object' && Object.keys(x).length) {
          const inner = toYaml(x, `${indent}  `);
          return `${indent}- ${inner.slice(indent.length + 2)}`;
        }
        return `${indent}- ${x !== null && typeof x === 'object' ? (Array.isArray(x) ? '[]' : '{}') : scalar(x)}\n`;
      })
      .join('');
  }
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>);
    if (entries.length === 0) return `${indent}{}\n`;
    return entries
      .map(([k, x]) => {
        if (x !== null && typeof x === 'object' && (Array.isArray(x) ? x.length : Object.keys(x).length)) {
          return `${indent}${keyOf(k)}:\n${toYaml(x, `${indent}  `)}`;
        }
        const empty = Array.isArray(x) ? '[]' : '{}';
        return `${indent}${keyOf(k)}: ${x !== null && typeof x === 'object' ? empty : scalar(x)}\n`;
      })
      .join('');
  }
  return `${indent}${scalar(v)}\n`;
}
