// Verdicts of `ncs audit verify`: a saved GET /audit-log answer or a deployment's whole chain, judged and
// worded (exit code and one line) the same wherever they are shown.
import { AuditPagingError, verifyWholeAuditChain } from './audit-paging.ts';
import { verifyAuditRange } from './audit-verify.ts';

/** 0 intact, 1 tampered or broken, 2 the file is no audit-log answer at all (a usage error). */
export type AuditVerdict = { exitCode: 0 | 1 | 2; message: string };

/**
 * Verifies a deployment's whole chain, page by page back to entry 1, and words the verdict.
 * @example (await auditVerifyChain({ baseUrl: 'http://127.0.0.1:4010', token, tenant, fetch })).exitCode // 0
 */
export async function auditVerifyChain(target: {
  baseUrl: string;
  token: string;
  tenant: string;
  fetch: typeof fetch;
}): Promise<AuditVerdict> {
  const { baseUrl, tenant } = target;
  let result: Awaited<ReturnType<typeof verifyWholeAuditChain>>;
  try {
    result = await verifyWholeAuditChain(target);
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
