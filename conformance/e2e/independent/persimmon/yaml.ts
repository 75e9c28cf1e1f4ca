// A block-style YAML writer for the OpenAPI files (what Data.Yaml.encode emits for an aeson Value):
// mappings and sequences in block form, every string double-quoted (JSON escapes are valid YAML).
import type { Rec } from './http.ts';

function scalar(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  return String(v);
}

const isEmpty = (v: unknown) =>
  (Array.isArray(v) && v.length === 0) || (v !== null && typeof v === 'object' && Object.keys(v).length === 0);

function lines(v: unknown, indent: string): string[] {
  if (Array.isArray(v)) {
    return v.flatMap((item) => {
      if (item !== null && typeof item === 'object' && !isEmpty(item)) {
        const [first = '', ...rest] = lines(item, `${indent}  `);
        return [`${indent}- ${first.trimStart()}`, ...rest];
      }
      return [`${indent}- ${isEmpty(item) ? JSON.stringify(item) : scalar(item)}`];
    });
  }
  return Object.entries(v as Rec).map(([k, val]) => {
    const key = JSON.stringify(k);
    if (val !== null && typeof val === 'object' && !isEmpty(val)) {
      return `${indent}${key}:\n${lines(val, `${indent}  `).join('\n')}`;
    }
    return `${indent}${key}: ${isEmpty(val) ? JSON.stringify(val) : scalar(val)}`;
  });
}

export function toYaml(doc: Rec): string {
  return `${lines(doc, '').join('\n')}\n`;
}
