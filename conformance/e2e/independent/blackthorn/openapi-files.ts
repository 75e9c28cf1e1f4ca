// The OpenAPI file handlers, and a minimal YAML writer for the download: block mappings and sequences, every string quoted as
// JSON (valid YAML flow scalars), so no escaping rules of YAML's plain scalars can bite.
import { type Ctx, sendJson } from './http.ts';
import { document } from './openapi.ts';
import type { Rec } from './state.ts';

const scalar = (v: unknown) => (typeof v === 'string' ? JSON.stringify(v) : String(v));

function lines(v: unknown, indent: string): string[] {
  if (Array.isArray(v)) {
    if (v.length === 0) return [`${indent}[]`];
    return v.flatMap((item) => {
      if (item !== null && typeof item === 'object' && Object.keys(item).length > 0) {
        const inner = lines(item, `${indent}  `);
        return [`${indent}- ${(inner[0] ?? '').trimStart()}`, ...inner.slice(1)];
      }
      return [
        `${indent}- ${item !== null && typeof item === 'object' ? (Array.isArray(item) ? '[]' : '{}') : scalar(item)}`,
      ];
    });
  }
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v as Rec);
    if (entries.length === 0) return [`${indent}{}`];
    return entries.flatMap(([k, val]) => {
      const name = JSON.stringify(k);
      if (
        val !== null &&
        typeof val === 'object' &&
        (Array.isArray(val) ? val.length > 0 : Object.keys(val).length > 0)
      ) {
        return [`${indent}${name}:`, ...lines(val, `${indent}  `)];
      }
      const empty = Array.isArray(val) ? '[]' : '{}';
      return [`${indent}${name}: ${val !== null && typeof val === 'object' ? empty : scalar(val)}`];
    });
  }
  return [`${indent}${scalar(v)}`];
}

export function toYaml(doc: Rec): string {
  return `${lines(doc, '').join('\n')}\n`;
}

export function openapiJson(ctx: Ctx, version?: string) {
  if (version) ctx.headers['content-disposition'] = `attachment; filename="blackthorn-openapi-${version}.json"`;
  sendJson(ctx, 200, document(version));
}

export function openapiYaml(ctx: Ctx, version: string) {
  const text = toYaml(document(version));
  ctx.res.writeHead(200, {
    'content-type': 'application/yaml; charset=utf-8',
    'content-disposition': 'attachment; filename="blackthorn-openapi.yaml"',
  });
  ctx.res.end(text);
}
