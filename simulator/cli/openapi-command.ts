import { writeFileSync } from 'node:fs';
import { buildOpenApiDocument } from '../contract/openapi.ts';
import { openApiYaml } from '../contract/openapi-yaml.ts';
import { CURRENT_VERSION, isSupportedVersion, SUPPORTED_VERSIONS } from '../contract/versions.ts';

/**
 * `ncs openapi`: the generated OpenAPI 3.1 document as JSON or YAML, to stdout or a file.
 * @example writeOpenApi({ format: 'yaml', out: 'openapi.yaml' });
 */
export function writeOpenApi(opts: { format?: string; out?: string; version?: string; server?: string[] }): string {
  const format = opts.format ?? 'json';
  if (format !== 'json' && format !== 'yaml') throw new Error(`--format must be json or yaml, not ${format}`);
  const version = opts.version ?? CURRENT_VERSION;
  if (!isSupportedVersion(version)) throw new Error(`--version must be one of ${SUPPORTED_VERSIONS.join(', ')}`);
  const doc = buildOpenApiDocument({ version, ...(opts.server?.length ? { servers: opts.server } : {}) });
  const text = format === 'json' ? `${JSON.stringify(doc, null, 2)}\n` : openApiYaml(doc);
  if (opts.out) writeFileSync(opts.out, text);
  return text;
}
