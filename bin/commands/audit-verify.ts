// `ncs audit verify [file]`: recompute the hash chain and proof of a saved GET /audit-log answer, or of a
// deployment's whole chain read page by page (GET /audit-log?before=<seq>).
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { AuditPagingError, verifyWholeAuditChain } from '../../simulator/contract/audit-paging.ts';
import { verifyAuditRange } from '../../simulator/contract/audit-verify.ts';
import { reachingFetch } from '../../simulator/lib/reach.ts';
import { baseUrlOf, readReadyFile } from './target.ts';
import { UsageError } from './usage.ts';

/** 0 intact, 1 tampered or broken, 2 the file is no audit-log answer at all (a usage error). */
export type AuditVerdict = { exitCode: 0 | 1 | 2; message: string };

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
  let result: Awaited<ReturnType<typeof verifyWholeAuditChain>>;
  try {
    result = await verifyWholeAuditChain({ baseUrl, token, tenant, fetch: reachingFetch(globalThis.fetch, baseUrl) });
  } catch (err) {
    if (err instanceof AuditPagingError) return { exitCode: 2, message: `not verifiable: ${err.message}` };
    throw err;
  }
  if (!result.ok)
    return {
      exitCode: 1,
      message: `FAILED: ${result.reason}${result.seq !== undefined ? ` at seq ${result.seq}` : ''}: ${result.message}`,
    };
  return {
    exitCode: 0,
    message: `intact: ${result.count} entries, seq ${result.fromSeq}..${result.toSeq} (the whole chain ${baseUrl} holds for ${tenant})`,
  };
}

/**
 * Checks a saved audit-log answer: the success envelope of GET /audit-log ({ ok, data: { entries, proof } })
 * or a bare { entries, proof }. Exit code 0 when every hash and link recomputes, 1 when one does not, 2 when the
 * document is not an audit-log answer (a failure envelope, another endpoint's answer).
 * @example auditVerifyDocument(JSON.parse(text)) // { exitCode: 0, message: 'intact: 50 entries, seq 1..50, …' }
 */
export function auditVerifyDocument(doc: unknown): AuditVerdict {
  const d = doc as {
    ok?: boolean;
    data?: { entries?: unknown; proof?: unknown };
    entries?: unknown;
    proof?: unknown;
    error?: { code?: string };
  } | null;
  if (d && typeof d === 'object' && d.ok === false)
    return {
      exitCode: 2,
      message: `not verifiable: the file is a failure response (${String(d.error?.code ?? 'unknown code')})`,
    };
  const body = d && typeof d === 'object' && d.data && typeof d.data === 'object' ? d.data : d;
  if (!body || typeof body !== 'object' || !('entries' in body) || !('proof' in body)) {
    return {
      exitCode: 2,
      message:
        'not verifiable: expected a GET /audit-log response ({"ok":true,"data":{"entries":[…],"proof":{…}}}) or {"entries":[…],"proof":{…}}',
    };
  }
  const result = verifyAuditRange(body.entries, body.proof);
  if (!result.ok)
    return {
      exitCode: 1,
      message: `FAILED: ${result.reason}${result.seq !== undefined ? ` at seq ${result.seq}` : ''}: ${result.message}`,
    };
  const proof = body.proof as { headHash: string; chainHead: { seq: number } };
  return {
    exitCode: 0,
    message: `intact: ${result.count} entries, seq ${result.fromSeq}..${result.toSeq}, head ${proof.headHash.slice(0, 16)}… (chain head seq ${proof.chainHead.seq})`,
  };
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
