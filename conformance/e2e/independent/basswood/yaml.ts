// A small YAML writer (Psych's `to_yaml` for the OpenAPI file): block mappings and sequences, every string
// double-quoted with JSON escapes (valid YAML 1.2), so no value can be misread as a number or a boolean.
import type { Rec } from './state.ts';

function scalar(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  return String(v);
}

function emit(v: unknown, indent: string): string[] {
  if (Array.isArray(v)) {
    if (v.length === 0) return [`${indent}[]`];
    return v.flatMap((item) => {
      const inner = emit(item, `${indent}  `);
      const isBlock = item !== null && typeof item === 'object' && Object.keys(item as Rec).length > 0;
      if (!isBlock) return [`${indent}- ${inner[0]?.trim() ?? ''}`];
      return [`${indent}- ${inner[0]?.trimStart() ?? ''}`, ...inner.slice(1)];
    });
  }
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v as Rec);
    if (entries.length === 0) return [`${indent}{}`];
    return entries.flatMap(([k, val]) => {
      const isBlock = val !== null && typeof val === 'object' && Object.keys(val as Rec).length > 0;
      if (!isBlock) return [`${indent}${JSON.stringify(k)}: ${emit(val, '')[0] ?? ''}`];
      return [`${indent}${JSON.stringify(k)}:`, ...emit(val, `${indent}  `)];
    });
  }
  return [`${indent}${scalar(v)}`];
}

export function toYaml(doc: Rec): string {
  return `---\n${emit(doc, '').join('\n')}\n`;
}
