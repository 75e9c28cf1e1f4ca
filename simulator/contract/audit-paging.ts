import type { AuditEntry, AuditProof } from './audit-hash.ts';
import { verifyAuditRange, type AuditVerifyResult } from './audit-verify.ts';
import { AUDIT_DEFAULTS } from './simulator-defaults.ts';
import { BASE_PATH } from './versions.ts';

export interface AuditPagingOptions {
  /** The deployment's root (without /api/public/v1). */
  baseUrl: string;
  token: string;
  tenant: string;
  fetch?: typeof fetch;
  /** Entries per page (default and most: 500). */
  pageSize?: number;
}

/** Thrown when a page cannot be read (status, not JSON): the chain was not judged. */
export class AuditPagingError extends Error {}

/**
 * Reads a tenant's whole audit chain through GET /audit-log, newest page first, then `?before=<fromSeq>`
 * back to the oldest entry the deployment holds, and verifies it as one range: every hash, every link
 * (across pages too), the anchor and the chain head of the first page. A page that does not join the
 * next older one fails as broken_link.
 * @example const r = await verifyWholeAuditChain({ baseUrl, token, tenant }); // { ok: true, fromSeq: 1, toSeq: 600, count: 600 }
 */
export async function verifyWholeAuditChain(opts: AuditPagingOptions): Promise<AuditVerifyResult> {
  const doFetch = opts.fetch ?? globalThis.fetch;
  const limit = opts.pageSize ?? AUDIT_DEFAULTS.maxLimit;
  const url = `${opts.baseUrl.replace(/\/+$/, '')}${BASE_PATH}/audit-log`;
  const headers = { authorization: `Bearer ${opts.token}`, 'x-service-tenant': opts.tenant };
  const entries: AuditEntry[] = [];
  let first: AuditProof | undefined;
  let oldest: AuditProof | undefined;
  for (let before: number | undefined; ; ) {
    const res = await doFetch(`${url}?limit=${limit}${before !== undefined ? `&before=${before}` : ''}`, { headers });
    const body = (await res.json().catch(() => undefined)) as
      | { ok?: boolean; data?: { entries?: AuditEntry[]; proof?: AuditProof }; error?: { code?: string } }
      | undefined;
    if (!res.ok || !body?.data?.proof || !Array.isArray(body.data.entries))
      throw new AuditPagingError(
        `GET ${BASE_PATH}/audit-log${before !== undefined ? `?before=${before}` : ''} answered ${res.status}${body?.error?.code ? ` ${body.error.code}` : ''}, not an audit page`,
      );
    const { entries: page, proof } = body.data;
    // Each page on its own first: its hashes, links and anchor.
    const alone = verifyAuditRange(page, { ...proof, chainHead: first?.chainHead ?? proof.chainHead });
    if (!alone.ok) return alone;
    if (oldest && page.length && proof.headHash !== oldest.anchorPrevHash)
      return {
        ok: false,
        reason: 'broken_link',
        seq: oldest.fromSeq,
        message: `entry ${oldest.fromSeq} does not point at the hash of entry ${proof.toSeq} of the older page`,
      };
    first ??= proof;
    if (page.length) oldest = proof;
    entries.push(...page);
    if (!page.length || proof.fromSeq <= 1 || page.length < limit) break;
    before = proof.fromSeq;
  }
  if (!first || !oldest) return verifyAuditRange([], first);
  // The whole as one range: every link from the oldest anchor up to the first page's head.
  return verifyAuditRange(entries, {
    ...first,
    fromSeq: oldest.fromSeq,
    anchorPrevHash: oldest.anchorPrevHash,
  });
}
