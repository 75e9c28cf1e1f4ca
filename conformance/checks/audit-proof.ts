import type { Exchange } from '../client/http-client.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { auditPageSize, auditPath, entriesOf } from './support/audit-log.ts';
import { documentedMaximum } from './support/documented-page.ts';
import { openApiExchange } from './support/openapi.ts';
import { placesWithVersion } from './support/places.ts';

/** Names a proof goes by: hash chains, signatures, Merkle roots, digests, MACs. */
const PROOF_NAME = /proof|integrity|hash|chain|signature|signed|digest|merkle|hmac|checksum|attestation|seal/i;
/** Values a proof is written as: a SHA-256-or-longer digest in hex, or one in base64/base64url. */
const PROOF_VALUE = /^(?:[0-9a-f]{40,}|[0-9A-F]{40,}|[A-Za-z0-9+/_-]{43,}={0,2})$/;

/**
 * Where the answer shows a proof of integrity, whatever its format: a field or header named like one, or a
 * value written like a digest; undefined when it shows none.
 * @example proofShown(auditAnswer) // 'data.proof' or 'header x-audit-signature' or 'data.results[0].entry_hash'
 */
export function proofShown(ex: Exchange): string | undefined {
  for (const name of Object.keys(ex.headers)) if (PROOF_NAME.test(name)) return `header ${name}`;
  // Breadth first, names before values: the answer's `proof` object is named before an entry's digest.
  let level: [string, unknown][] = [['data', (ex.json as { data?: unknown } | undefined)?.data]];
  const byValue: string[] = [];
  while (level.length) {
    const next: [string, unknown][] = [];
    for (const [at, v] of level) {
      if (typeof v === 'string' && PROOF_VALUE.test(v)) byValue.push(at);
      else if (Array.isArray(v)) for (const [i, x] of v.entries()) next.push([`${at}[${i}]`, x]);
      else if (v && typeof v === 'object')
        for (const [k, x] of Object.entries(v)) {
          if (PROOF_NAME.test(k) && x !== null && x !== '' && x !== false) return `${at}.${k}`;
          next.push([`${at}.${k}`, x]);
        }
    }
    level = next;
  }
  return byValue[0];
}

/** Where a proof is shown, entry positions aside (`data.entries[3].hash` is where `data.entries[0].hash` is). */
const placeOf = (where: string | undefined) => where?.replace(/\[\d+\]/g, '[]');

/**
 * The same audit log in the other places it is offered (the alternate address, the second tenant, the earlier
 * version where it is served: "no change that requires adaptation of clients") shows its proof as well.
 */
async function proofInOtherPlaces(ctx: CheckContext, limit: number, where: string) {
  for (const place of await placesWithVersion(ctx)) {
    const ex = await ctx.call('GET', auditPath(), { ...place.call, query: { limit: String(limit) } });
    // Not offered there, or nothing logged yet (a second tenant's log may be empty): nothing to prove.
    if (ex.status !== 200 || !entriesOf(ex)?.length) continue;
    const there = proofShown(ex);
    ctx.expect.that(placeOf(there) === placeOf(where), {
      expected: `the audit log ${place.what} shows its proof of integrity too, as at the main address (at ${where})`,
      observed: there
        ? `a proof-like value at ${there} only`
        : 'no field or header named like a proof, and no digest-like value, in the answer',
      exchange: ex,
    });
  }
}

export const proofPresent = defineCheck({
  name: 'audit.proof-shown',
  title:
    'the audit log shows a proof of integrity in some form (a field or header named like one, or a digest-like value), whatever its format, in every place it is offered (alternate address, second tenant, earlier version)',
  // The interface names the proof only in the sample call's purpose and shows nothing of it: a deployment
  // could hand it out elsewhere, so its absence from the answer is a SHOULD, not a MUST.
  severity: 'SHOULD',
  section: 'GET /api/public/v1/audit-log (appears in a sample call only)',
  tags: ['audit', 'security'],
  mutating: false,
  requires: ['token'],
  // After the other checks: the run's changes are in the log by then.
  judgesRun: true,
  async run(ctx: CheckContext) {
    const limit = await auditPageSize(ctx);
    const ex = await ctx.call('GET', auditPath(), { query: { limit: String(limit) } });
    ctx.require(ex.status === 200, { expected: `GET ${auditPath()}?limit=${limit} answers 200`, exchange: ex });
    if (entriesOf(ex)?.length === 0) ctx.skip('the audit log is empty: nothing to prove yet');
    const where = proofShown(ex);
    ctx.expect.that(where !== undefined, {
      expected:
        'the audit log answer includes a proof of integrity ("traceable changes of the tenant, including a proof of integrity"): a hash chain, a signature, a Merkle root or the like',
      observed: 'no field or header named like a proof, and no digest-like value, in the answer',
      exchange: ex,
    });
    if (where) ctx.note(`proof shown at ${where}`);
    if (!where) return;
    await proofInOtherPlaces(ctx, limit, where);
    // A page cut short of the log (limit 1) is still the audit log, and so is a page larger than the kit's (a
    // limit the deployment takes): each answer shows the proof too (pages served from another store lose it).
    // Twice the kit's page, within the maximum the deployment documents (a page beyond it is not one it offers).
    const max = documentedMaximum((await openApiExchange(ctx)).json, auditPath(), 'limit');
    const larger = max === undefined ? 2 * limit : Math.min(2 * limit, Math.floor(max));
    const pages = [...((entriesOf(ex)?.length ?? 0) >= 2 ? [1] : []), ...(larger > limit ? [larger] : [])];
    for (const size of pages) {
      const page = await ctx.call('GET', auditPath(), { query: { limit: String(size) } });
      const listed = entriesOf(page)?.length;
      if (page.status !== 200 || !listed || (size === 1 && listed !== 1)) {
        ctx.note(`GET ${auditPath()}?limit=${size} answered ${page.status} with ${listed ?? 'no'} entries: not judged`);
        continue;
      }
      const shown = proofShown(page);
      ctx.expect.that(placeOf(shown) === placeOf(where), {
        expected: `GET ${auditPath()}?limit=${size} (${size === 1 ? 'a page cut short of the log' : 'a larger page'}) shows the proof of integrity as the page of ${limit} does (at ${where})`,
        observed: shown
          ? `a proof-like value at ${shown} only`
          : 'no field or header named like a proof, and no digest-like value, in the answer',
        exchange: page,
      });
    }
  },
});
