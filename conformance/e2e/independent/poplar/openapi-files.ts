// The downloadable description files per version (JSON and YAML), with a small YAML writer (block style; strings always quoted, so no YAML 1.1
// surprises such as `on` or `2026-07-01` read as a date).
import type { Ctx } from './http-util.ts';
import { openapi } from './openapi.ts';

function scalar(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  return String(v);
}

function key(k: string): string {
  return /^[A-Za-z_][\w.-]*$/.test(k) ? k : JSON.stringify(k);
}

function lines(v: unknown, indent: string): string[] {
  if (Array.isArray(v)) {
    if (v.length === 0) return [`${indent}[]`];
    return v.flatMap((item) => {
      if (item && typeof item === 'object' && Object.keys(item).length > 0) {
        const inner = lines(item, `${indent}  `);
        return [`${indent}- ${(inner[0] ?? '').trimStart()}`, ...inner.slice(1)];
      }
      return [`${indent}- ${item && typeof item === 'object' ? (Array.isArray(item) ? '[]' : '{}') : scalar(item)}`];
    });
  }
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>);
    if (entries.length === 0) return [`${indent}{}`];
    return entries.flatMap(([k, val]) => {
      if (val && typeof val === 'object' && (Array.isArray(val) ? val.length > 0 : Object.keys(val).length > 0)) {
        return [`${indent}${key(k)}:`, ...lines(val, `${indent}  `)];
      }
      const empty = Array.isArray(val) ? '[]' : val && typeof val === 'object' ? '{}' : scalar(val);
      return [`${indent}${key(k)}: ${empty}`];
    });
  }
  return [`${indent}${scalar(v)}`];
}

export function toYaml(v: unknown): string {
  return `${lines(v, '').join('\n')}\n`;
}

/** The description of one published version as a file (the current document; 2026-07-01 only added routes). */
export function download(ctx: Ctx, version: string, format: 'json' | 'yaml'): void {
  const doc = openapi();
  (doc.info as Record<string, unknown>).version = version;
  const text = format === 'json' ? JSON.stringify(doc, null, 2) : toYaml(doc);
  ctx.res.writeHead(200, {
    'content-type': format === 'json' ? 'application/json; charset=utf-8' : 'application/yaml; charset=utf-8',
    'content-disposition': `attachment; filename="poplar-openapi-${version}.${format}"`,
    'x-request-id': ctx.requestId,
  });
  ctx.res.end(text);
}
