// `ncs audit verify [file]`: recompute the hash chain and proof of a saved GET /audit-log answer, or of a
// deployment's whole chain read page by page (GET /audit-log?before=<seq>).
import type { Command } from 'commander';
import type { RemoteAuditOptions } from './audit-verdicts.ts';

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
      // The verdicts (the chain's hashing and paging) load when the command runs (lazy.ts).
      const { auditVerifyFile, auditVerifyRemote } = await import('./audit-verdicts.ts');
      const r = file === undefined ? await auditVerifyRemote(o) : auditVerifyFile(file);
      (r.exitCode === 0 ? process.stdout : process.stderr).write(
        `${r.exitCode === 2 ? 'ncs audit verify: ' : ''}${r.message}\n`,
      );
      process.exitCode = r.exitCode;
    });
}
