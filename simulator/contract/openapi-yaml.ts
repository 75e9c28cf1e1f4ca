import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * The YAML text of an OpenAPI document. The yaml package (some 70 modules) is loaded on the first
 * call, not at start-up: most runs never ask for YAML, and `ncs serve` starts faster without it.
 * @example writeFileSync('openapi.yaml', openApiYaml(buildOpenApiDocument()));
 */
export function openApiYaml(doc: unknown): string {
  const { stringify } = require('yaml') as typeof import('yaml');
  return stringify(doc, { aliasDuplicateObjects: false });
}
