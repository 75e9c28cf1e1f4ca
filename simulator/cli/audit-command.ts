import { readFileSync } from 'node:fs';
import { verifyAuditRange } from '../contract/audit-verify.ts';

/**
 * Checks a saved audit-log answer: the success envelope of GET /audit-log ({ ok, data: { entries, proof } })
 * or a bare { entries, proof }. Exit code 0 when every hash and link recomputes, 1 when one does not,
 * 2 (a usage error) when the document is no audit-log answer at all.
 * @example auditVerifyDocument(JSON.parse(text)) // { exitCode: 0, message: 'intact: 50 entries, seq 1..50, …' }
 */
export function auditVerifyDocument(doc: unknown): { exitCode: 0 | 1 | 2; message: string } {
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

/** `ncs audit verify <file>`. Throws (usage error) when the file cannot be read or is not JSON. */
export function auditVerifyFile(file: string): { exitCode: 0 | 1 | 2; message: string } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`cannot read ${file}: ${(err as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new Error(`${file} is not JSON`);
  }
  return auditVerifyDocument(doc);
}
