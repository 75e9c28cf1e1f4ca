// A small YAML 1.2 writer for the OpenAPI download: block style, every string double-quoted with JSON escapes
// (valid YAML), so the YAML file parses to exactly the JSON document.
function scalar(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (v === null || v === undefined) return 'null';
  return String(v);
}

function isEmpty(v: unknown): boolean {
  return (Array.isArray(v) && v.length === 0) || (v !== null && typeof v === 'object' && Object.keys(v).length === 0);
}

export function toYaml(v: unknown, indent = ''): string {
  if (Array.isArray(v)) {
    return v
      .map((item) => {
        if (item !== null && typeof item === 'object' && !isEmpty(item)) {
          const inner = toYaml(item, `${indent}  `);
          return `${indent}- ${inner.slice(indent.length + 2)}`;
        }
        return `${indent}- ${isEmpty(item) ? (Array.isArray(item) ? '[]' : '{}') : scalar(item)}`;
      })
      .join('\n');
  }
  if (v !== null && typeof v === 'object') {
    return Object.entries(v as Record<string, unknown>)
      .filter(([, x]) => x !== undefined)
      .map(([k, x]) => {
        const key = JSON.stringify(k);
        if (isEmpty(x)) return `${indent}${key}: ${Array.isArray(x) ? '[]' : '{}'}`;
        if (x !== null && typeof x === 'object') return `${indent}${key}:\n${toYaml(x, `${indent}  `)}`;
        return `${indent}${key}: ${scalar(x)}`;
      })
      .join('\n');
  }
  return `${indent}${scalar(v)}`;
}
