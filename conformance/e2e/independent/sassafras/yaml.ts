// A small block-style YAML writer for the downloadable OpenAPI files (no dependency; scalars are written as
// JSON, which YAML 1.2 reads as the same values, so the YAML file parses to exactly the JSON document).
function scalar(v: unknown): string {
  return v === null || v === undefined ? 'null' : JSON.stringify(v);
}

function isEmpty(v: unknown): boolean {
  return (Array.isArray(v) && v.length === 0) || (v !== null && typeof v === 'object' && Object.keys(v).length === 0);
}

function block(v: unknown, indent: string): string {
  if (Array.isArray(v)) {
    return v
      .map((item) => {
        if (item !== null && typeof item === 'object' && !isEmpty(item)) {
          const inner = block(item, `${indent}  `);
          return `${indent}- ${inner.slice(indent.length + 2)}`;
        }
        return `${indent}- ${isEmpty(item) ? (Array.isArray(item) ? '[]' : '{}') : scalar(item)}`;
      })
      .join('\n');
  }
  return Object.entries(v as Record<string, unknown>)
    .map(([k, val]) => {
      const key = JSON.stringify(k);
      if (val !== null && typeof val === 'object') {
        if (isEmpty(val)) return `${indent}${key}: ${Array.isArray(val) ? '[]' : '{}'}`;
        return `${indent}${key}:\n${block(val, `${indent}  `)}`;
      }
      return `${indent}${key}: ${scalar(val)}`;
    })
    .join('\n');
}

export function toYaml(doc: Record<string, unknown>): string {
  return `${block(doc, '')}\n`;
}
