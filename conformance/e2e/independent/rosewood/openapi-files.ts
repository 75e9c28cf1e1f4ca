// The OpenAPI document as files: /openapi.json itself and the per-version downloads /openapi/<version>.json
// and .yaml. The YAML writer is a small one (block style, strings quoted as JSON strings, which YAML 1.2
// reads unchanged), so no YAML package is needed.
import { Abort, type Ctx, VERSIONS } from './http.ts';
import { openapiDocument } from './openapi.ts';

/** The document itself, not wrapped in the envelope: tools read it as is. */
export function openapiJson(ctx: Ctx): void {
  const text = JSON.stringify(openapiDocument(ctx.base));
  ctx.res.writeHead(200, {
    ...ctx.headers,
    'content-type': 'application/json; charset=utf-8',
    'x-request-id': ctx.requestId,
  });
  ctx.res.end(text);
}

/** GET /openapi/:file, e.g. 2026-07-01.json or 2026-06-12.yaml, as a download. */
export function openapiVersioned(ctx: Ctx): void {
  const m = /^(\d{4}-\d{2}-\d{2})\.(json|yaml)$/.exec(ctx.params.file ?? '');
  if (!m?.[1] || !VERSIONS.includes(m[1])) throw new Abort(404, 'No OpenAPI document of that name.');
  const doc = openapiDocument(ctx.base, m[1]);
  const yaml = m[2] === 'yaml';
  ctx.res.writeHead(200, {
    ...ctx.headers,
    'content-type': yaml ? 'application/yaml' : 'application/json; charset=utf-8',
    'content-disposition': `attachment; filename="rosewood-openapi-${m[1]}.${m[2]}"`,
  });
  ctx.res.end(yaml ? yamlDocument(doc) : JSON.stringify(doc));
}

function toYaml(value: unknown, indent = ''): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return value
      .map((v) => {
        const inner = toYaml(v, `${indent}  `);
        return isBlock(v) ? `\n${indent}- ${inner.trimStart()}` : `\n${indent}- ${inner}`;
      })
      .join('');
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return '{}';
    return entries
      .map(([k, v]) => {
        const inner = toYaml(v, `${indent}  `);
        return `\n${indent}${JSON.stringify(k)}:${isBlock(v) ? '' : ' '}${inner}`;
      })
      .join('');
  }
  return JSON.stringify(value ?? null);
}

function isBlock(v: unknown): boolean {
  if (Array.isArray(v)) return v.length > 0;
  return v !== null && typeof v === 'object' && Object.keys(v).length > 0;
}

/** The whole document, without the leading line break of the top-level mapping. */
const yamlDocument = (value: unknown): string => `${toYaml(value).replace(/^\n/, '')}\n`;
