// A block-style YAML writer for the per-version document (every string JSON-quoted, so no YAML 1.1 surprises).
import type { Rec } from './http.ts';

export function toYaml(value: unknown, indent = ''): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return ' []';
    return value.map((v) => `\n${indent}-${block(v, `${indent}  `)}`).join('');
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Rec);
    if (entries.length === 0) return ' {}';
    return entries.map(([k, v]) => `\n${indent}${JSON.stringify(k)}:${block(v, `${indent}  `)}`).join('');
  }
  return ` ${JSON.stringify(value)}`;
}

function block(v: unknown, indent: string): string {
  return toYaml(v, indent);
}

export const yamlDocument = (doc: Rec): string => `${toYaml(doc).trimStart()}\n`;
