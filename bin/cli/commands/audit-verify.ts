// `ncs audit verify [file]`: recompute the hash chain and proof of a saved GET /audit-log answer, or of a
// deployment's whole chain read page by page (GET /audit-log?before=<seq>).
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { type AuditVerdict, auditVerifyChain, auditVerifyDocument } from '../../../simulator/contract/audit-verdict.ts';
import { reachingFetch } from '../../../simulator/lib/reach.ts';
import { baseUrlOf, readReadyFile } from './target.ts';
import { UsageError } from './usage.ts';

// The verdicts themselves live in the contract layer; kept importable from here.
export { type AuditVerdict, auditVerifyDocument };

export function registerAuditVerify(audit: Command): void {
  audit
    .command('verify [file]')
    .description(
      'recompute the hash chain and proof of a saved GET /audit-log response, or (without a file) of a ' +
        "deployment's whole chain, paged back to its first entry: exit 0 intact, 1 not",
    )
    .option('--base-url <url>', 'deployment to read the whole chain from (env NCS_BASE_URL)')
    .option('--token <token>', 'bearer token with audit:read (env NCS_TOKEN)')
    .option('--tenant <id>', 'x-service-tenant (env NCS_TENANT)')
    .option('--ready-file <path>', 'read base URL, token and tenant from ncs serve --ready-file')
    .action(async (file: string | undefined, o: RemoteAuditOptions) => {
      const r = file === undefined ? await auditVerifyRemote(o) : auditVerifyFile(file);
      (r.exitCode === 0 ? process.stdout : process.stderr).write(
        `${r.exitCode === 2 ? 'ncs audit verify: ' : ''}${r.message}\n`,
      );
      process.exitCode = r.exitCode;
    });
}

export interface RemoteAuditOptions {
  baseUrl?: string;
  token?: string;
  tenant?: string;
  readyFile?: string;
}

/**
 * `ncs audit verify` without a file: the deployment's whole chain, page by page back to entry 1.
 * @example (await auditVerifyRemote({ baseUrl: 'http://127.0.0.1:4010', token, tenant })).exitCode // 0
 */
export async function auditVerifyRemote(o: RemoteAuditOptions, env = process.env): Promise<AuditVerdict> {
  const ready = readReadyFile(o.readyFile);
  const token = o.token ?? ready.token ?? env.NCS_TOKEN;
  const tenant = o.tenant ?? ready.tenant ?? env.NCS_TENANT;
  if (!token || !tenant)
    throw new UsageError(
      'give a saved GET /audit-log answer, or a deployment: --token and --tenant (NCS_TOKEN, NCS_TENANT) or --ready-file',
    );
  const baseUrl = baseUrlOf(o.baseUrl ?? ready.baseUrl, env);
  return auditVerifyChain({ baseUrl, token, tenant, fetch: reachingFetch(globalThis.fetch, baseUrl) });
}

/**
 * `ncs audit verify <file>`. Throws a UsageError when the file cannot be read or is not JSON.
 * @example auditVerifyFile('audit.json').exitCode // 0
 */
export function auditVerifyFile(file: string): AuditVerdict {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${(err as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new UsageError(`${file} is not JSON`);
  }
  return auditVerifyDocument(doc);
}
