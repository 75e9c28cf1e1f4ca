// `ncs openapi`: the generated OpenAPI 3.1 document, as served, to stdout or a file.
import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { CURRENT_VERSION, isSupportedVersion, SUPPORTED_VERSIONS } from '../../../simulator/contract/versions.ts';
import { UsageError } from './usage.ts';

export function registerOpenApi(program: Command): void {
  program
    .command('openapi')
    .description('print or write the generated OpenAPI 3.1 document')
    .option('--format <format>', 'json or yaml', 'json')
    .option('--out <file>', 'write to a file instead of stdout')
    .option('--version <version>', `published interface version (${SUPPORTED_VERSIONS.join(', ')})`)
    .option('--server <url...>', 'server URLs to write into the document (default: relative, like the served one)')
    .action(async (opts: OpenApiCommandOptions) => {
      const text = await writeOpenApi(opts);
      if (!opts.out) process.stdout.write(text);
    });
}

export interface OpenApiCommandOptions {
  format?: string;
  out?: string;
  version?: string;
  server?: string[];
}

/**
 * `ncs openapi`: the generated OpenAPI 3.1 document as JSON or YAML, written to `out` when given.
 * @example await writeOpenApi({ format: 'yaml', out: 'openapi.yaml' });
 */
export async function writeOpenApi(opts: OpenApiCommandOptions): Promise<string> {
  const format = opts.format ?? 'json';
  if (format !== 'json' && format !== 'yaml') throw new UsageError(`--format must be json or yaml, not ${format}`);
  const version = opts.version ?? CURRENT_VERSION;
  if (!isSupportedVersion(version)) throw new UsageError(`--version must be one of ${SUPPORTED_VERSIONS.join(', ')}`);
  // The document's builder (every route's zod schemas) loads here, not at every start of `ncs` (lazy.ts).
  const [{ buildOpenApiDocument }, { openApiYaml }] = await Promise.all([
    import('../../../simulator/contract/openapi.ts'),
    import('../../../simulator/contract/openapi-yaml.ts'),
  ]);
  const doc = buildOpenApiDocument({ version, ...(opts.server?.length ? { servers: opts.server } : {}) });
  const text = format === 'json' ? `${JSON.stringify(doc, null, 2)}\n` : openApiYaml(doc);
  if (opts.out) {
    try {
      writeFileSync(opts.out, text);
    } catch (err) {
      throw new UsageError(`cannot write ${opts.out}: ${(err as Error).message}`);
    }
  }
  return text;
}
