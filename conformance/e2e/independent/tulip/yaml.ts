// A small YAML emitter for the OpenAPI file (circe-yaml's printer in the team's stack): block mappings and
// sequences, every string double-quoted so no scalar is ever read back as another type.
import type { Rec } from './http.ts';

function scalar(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  return String(v);
}

function isEmpty(v: unknown): boolean {
  return (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && v !== null && Object.keys(v).length === 0);
}

export function toYaml(v: unknown, indent = 0): string {
  const pad = ' '.repeat(indent);
  if (Array.isArray(v)) {
    return v
      .map((item) => {
        if (typeof item === 'object' && item !== null && !isEmpty(item)) {
          const inner = toYaml(item, indent + 2).trimStart();
          return `${pad}- ${inner}`;
        }
        return `${pad}- ${isEmpty(item) ? (Array.isArray(item) ? '[]' : '{}') : scalar(item)}\n`;
      })
      .join('');
  }
  if (typeof v === 'object' && v !== null) {
    return Object.entries(v as Rec)
      .filter(([, x]) => x !== undefined && x !== null)
      .map(([k, x]) => {
        const key = JSON.stringify(k);
        if (isEmpty(x)) return `${pad}${key}: ${Array.isArray(x) ? '[]' : '{}'}\n`;
        if (typeof x === 'object') return `${pad}${key}:\n${toYaml(x, indent + 2)}`;
        return `${pad}${key}: ${scalar(x)}\n`;
      })
      .join('');
  }
  return `${pad}${scalar(v)}\n`;
}
