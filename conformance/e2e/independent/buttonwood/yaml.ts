// A small JSON-to-YAML writer for the downloadable per-version YAML file (the team's circe-yaml printer): every
// scalar is written as JSON (valid YAML 1.2 flow scalars), so no quoting rule can be got wrong.
import type { Rec } from './state.ts';

export function toYaml(value: unknown, indent = ''): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return value
      .map((v) => {
        const inner = toYaml(v, `${indent}  `);
        return isBlock(v) ? `${indent}-\n${inner}` : `${indent}- ${inner}`;
      })
      .join('\n');
  }
  if (value && typeof value === 'object') {
    const o = value as Rec;
    const keys = Object.keys(o);
    if (keys.length === 0) return '{}';
    return keys
      .map((k) => {
        const v = o[k];
        const inner = toYaml(v, `${indent}  `);
        return isBlock(v) ? `${indent}${JSON.stringify(k)}:\n${inner}` : `${indent}${JSON.stringify(k)}: ${inner}`;
      })
      .join('\n');
  }
  return JSON.stringify(value ?? null);
}

function isBlock(v: unknown): boolean {
  if (Array.isArray(v)) return v.length > 0;
  return !!v && typeof v === 'object' && Object.keys(v as Rec).length > 0;
}
