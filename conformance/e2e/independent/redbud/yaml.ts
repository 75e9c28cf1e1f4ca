// A small YAML 1.2 emitter for the downloadable document (serde_yaml's block style): strings are always
// double-quoted JSON strings, so no value is ever read back as another type.
import type { Rec } from './http.ts';

function scalar(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  return String(v);
}

function emit(v: unknown, indent: string): string[] {
  if (Array.isArray(v)) {
    if (v.length === 0) return [`${indent}[]`];
    return v.flatMap((item) => {
      const lines = emit(item, `${indent}  `);
      const first = (lines[0] ?? '').trimStart();
      return [`${indent}- ${first}`, ...lines.slice(1)];
    });
  }
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Rec).filter(([, x]) => x !== undefined);
    if (entries.length === 0) return [`${indent}{}`];
    return entries.flatMap(([k, x]) => {
      const key = `${indent}${JSON.stringify(k)}:`;
      const nested = x && typeof x === 'object' && Object.keys(x).length > 0;
      return nested ? [key, ...emit(x, `${indent}  `)] : [`${key} ${emit(x, '')[0]}`];
    });
  }
  return [`${indent}${scalar(v)}`];
}

export function toYaml(doc: Rec): string {
  return `${emit(doc, '').join('\n')}\n`;
}
