// A small YAML writer for the downloadable document (block style, strings always quoted as JSON strings,
// which YAML 1.2 reads unchanged), as SnakeYAML's dumper would hand the same tree out.
import type { Rec } from './http.ts';

export function toYaml(value: unknown, indent = 0): string {
  const pad = ' '.repeat(indent);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return value
      .map((v) => {
        const inner = toYaml(v, indent + 2);
        return isBlock(v) ? `${pad}-\n${inner}` : `${pad}- ${inner}`;
      })
      .join('\n');
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Rec);
    if (entries.length === 0) return '{}';
    return entries
      .map(([k, v]) => {
        const key = JSON.stringify(k);
        return isBlock(v) ? `${pad}${key}:\n${toYaml(v, indent + 2)}` : `${pad}${key}: ${toYaml(v, indent + 2)}`;
      })
      .join('\n');
  }
  return JSON.stringify(value ?? null);
}

function isBlock(v: unknown): boolean {
  if (Array.isArray(v)) return v.length > 0;
  return !!v && typeof v === 'object' && Object.keys(v).length > 0;
}
