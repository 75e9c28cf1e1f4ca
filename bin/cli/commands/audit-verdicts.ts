// `ncs audit verify`'s verdicts: a saved GET /audit-log answer, or a deployment's whole chain read page by
// page (audit-verify.ts registers the command and loads this module when it runs).
import { readFileSync } from 'node:fs';
import { type AuditVerdict, auditVerifyChain, auditVerifyDocument } from '../../../simulator/contract/audit-verdict.ts';
import { reachingFetch } from '../../../simulator/lib/reach.ts';
import { baseUrlOf, readReadyFile } from './target.ts';
import { UsageError } from './usage.ts';

// The verdicts themselves live in the contract layer; kept importable from here.
export { type AuditVerdict, auditVerifyDocument };

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
