import type { KeyObject } from 'node:crypto';
import type { Exchange } from '../client/http-client.ts';
import { routeOf } from '../rules/exchange-scope.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { auditLargestPage, entriesOf, readAuditLog } from './support/audit-log.ts';
import { hashInput } from './support/entry-hash.ts';
import {
  type FoundSignature,
  findKeys,
  findSignatures,
  isMac,
  signatureHolds,
  signedInputs,
} from './support/signature-proof.ts';

// A signed proof (a chain head, a tree head, a page) holds when it verifies with the public key the answer or
// the profile gives. What it signs is the deployment's ("Response fields and further parameters: not shown"):
// declared in the profile (auditSignature), every signature must verify by it; found, the kit knows the
// scheme only from a signature that verifies, and then every signature of the same place must verify by the
// same scheme (the signed head of one page and not of another is no proof). A signature that verifies by no
// common scheme is skipped (said), never failed, unless declared.

/** Pages read: enough to meet more than one head or page signature. */
const ENTRIES_READ = 200;

type Judged = FoundSignature & { exchange: Exchange; keys: KeyObject[] };

const holdsBy = (s: Judged, label: string, declared?: (h: Record<string, unknown>) => string) => {
  const input = signedInputs(s, declared).find(([l]) => l === label)?.[1];
  return !!input && s.keys.some((k) => signatureHolds(k, s.value, input));
};

/** The first scheme (signed text) by which a signature of the group verifies, if any. */
function schemeOf(group: Judged[]): string | undefined {
  for (const s of group)
    for (const [label, input] of signedInputs(s))
      if (s.keys.some((k) => signatureHolds(k, s.value, input))) return label;
  return undefined;
}

export const auditSignature = defineCheck({
  name: 'audit.signature',
  title:
    "the audit log's signed proof verifies with the public key the answer or the profile gives, by the scheme the profile declares (auditSignature) or the one that verifies another of its signatures",
  severity: 'MUST',
  section: 'GET /api/public/v1/audit-log (appears in a sample call only)',
  tags: ['audit', 'security'],
  mutating: false,
  requires: ['token'],
  judgesRun: true,
  async run(ctx: CheckContext) {
    const declared = ctx.deployment.auditSignature;
    if (declared === null) ctx.skip('the deployment profile says its audit log carries no signature');
    const limit = await auditLargestPage(ctx, ENTRIES_READ);
    const read = await readAuditLog(ctx, (entries) => entries.length >= ENTRIES_READ, limit);
    const first = read.pages[0] as Exchange;
    if (first.status !== 200 || !entriesOf(first)?.length)
      ctx.skip(
        first.status === 200 ? 'the audit log is empty: nothing signed yet' : `the audit log answered ${first.status}`,
      );
    // A page cut short (limit 1) is another range: its proof is signed anew, or is the same head. So is the page
    // after it (the log's second newest or second oldest entry), asked for as the deployment offers it: a proof
    // built for the first page alone does not hold for the rest of the log.
    const cut = (await readAuditLog(ctx, (entries) => entries.length >= 2, 1)).pages;
    // With the run's other reads of the log (other checks', before and after their writes): a signature that
    // verified once names the scheme, and one served later for a head that has moved on no longer does.
    const bases = [ctx.target.baseUrl, ...(ctx.target.altBaseUrl ? [ctx.target.altBaseUrl] : [])];
    const own = [...read.pages, ...cut];
    const others = ctx
      .exchanges()
      .map((l) => l.ex)
      .filter((ex) => ex.method === 'GET' && !own.includes(ex) && routeOf(ex, bases)?.id === 'getAuditLog');
    const answers = [...own, ...others].filter((ex) => ex.status === 200);
    const given = declared?.publicKey ? findKeys({ key: declared.publicKey }) : [];
    // A key set the answer names by address (`jwksUri`), on the deployment's own origin: read once.
    const linked = await linkedKeys(ctx, answers);
    const found: Judged[] = answers.flatMap((ex) => {
      const data = (ex.json as { data?: unknown } | undefined)?.data;
      const keys = [...given, ...linked, ...findKeys(data)];
      return findSignatures(data)
        .filter((s) => !declared?.field || s.path === `data.${declared.field}` || s.key === declared.field)
        .map((s) => ({ ...s, exchange: ex, keys }));
    });
    if (!found.length) {
      ctx.expect.that(!declared, {
        expected: `the audit log's answer carries the signature the deployment profile declares (${declared?.field ?? 'a field named like a signature'})`,
        observed: 'no field named like a signature (signature, sig, jws, headSignature, …) in the answers read',
        exchange: first,
      });
      ctx.skip('no signature in the audit log (its proof is judged by audit.integrity and audit.entry-hash)');
    }
    if (found.every((s) => s.keys.length === 0 && isMac(s)))
      ctx.skip(
        `the audit log's ${found[0]?.path} is a keyed MAC (an HMAC, no public key): only the deployment's secret verifies it, not judged from outside`,
      );
    if (found.every((s) => s.keys.length === 0))
      ctx.skip(
        `a signature at ${found[0]?.path} but no public key the kit reads beside it (a JWK, a JWK set, PEM): declare auditSignature.publicKey in the deployment profile`,
      );
    const template = declared?.input;
    const declaredInput = template
      ? (h: Record<string, unknown>, key: string) =>
          hashInput(h, { field: key, algorithm: 'sha256', encoding: 'hex', input: template, exclude: [] })
      : undefined;
    const groups = new Map<string, Judged[]>();
    for (const s of found) groups.set(s.shape, [...(groups.get(s.shape) ?? []), s]);
    const broken: { text: string; exchange?: Exchange }[] = [];
    let judged = 0;
    for (const [shape, group] of groups) {
      const scheme = declaredInput ? 'the declared input' : schemeOf(group);
      if (!scheme) {
        if (declared)
          broken.push({
            text: `${shape}: none of ${group.length} verifies with the keys given by the declared scheme`,
            exchange: group[0]?.exchange,
          });
        else
          ctx.note(
            `${shape}: ${group.length} signature${group.length > 1 ? 's' : ''} the kit verifies by no common scheme (the signed head as text or bytes, its object as JSON): not judged; declare auditSignature in the profile`,
          );
        continue;
      }
      judged += group.length;
      const failing = group.filter(
        (s) => !holdsBy(s, scheme, declaredInput ? (h) => declaredInput(h, s.key) : undefined),
      );
      ctx.note(`${shape} signs ${scheme}; ${group.length - failing.length} of ${group.length} verify`);
      for (const s of failing) {
        const url = new URL(s.exchange.url);
        broken.push({ text: `${s.path} of GET ${url.pathname}${url.search}`, exchange: s.exchange });
      }
    }
    if (!judged && !broken.length)
      ctx.skip(
        'no signed text the kit tries (a value or object beside the signature, the object holding it as JSON) verifies any signature of the audit log with the keys given: declare auditSignature.input in the deployment profile',
      );
    ctx.expect.that(broken.length === 0, {
      expected: `every signature of the audit log verifies with its public key by ${declared ? 'the scheme the deployment profile declares' : 'the scheme that verifies the others of its place'}: a proof of integrity ("including a proof of integrity")`,
      observed: `${broken.length} do${broken.length === 1 ? 'es' : ''} not: ${broken
        .slice(0, 4)
        .map((b) => b.text)
        .join('; ')}${broken.length > 4 ? '; …' : ''}`,
      exchange: broken[0]?.exchange ?? first,
    });
  },
});

/** Names of a JWK set's address in an answer (OpenID's `jwks_uri`, `jwksUrl`, …). */
const JWKS_ADDRESS = /^jwks[-_]?(?:uri|url)$/i;

/**
 * The keys of JWK sets the answers name by address, where that address is on the deployment's own origin
 * (either base URL's; the kit reads nothing elsewhere): a signed page's key published at `/.well-known/jwks.json`.
 */
async function linkedKeys(ctx: CheckContext, answers: readonly Exchange[]): Promise<KeyObject[]> {
  const addresses = new Set<string>();
  const walk = (v: unknown, depth: number) => {
    if (!v || typeof v !== 'object' || depth > 4) return;
    for (const [k, x] of Object.entries(v)) {
      if (typeof x === 'string' && JWKS_ADDRESS.test(k)) addresses.add(x);
      else if (!Array.isArray(x)) walk(x, depth + 1);
    }
  };
  for (const ex of answers) walk((ex.json as { data?: unknown } | undefined)?.data, 0);
  // The deployment's own origins: an answer at the alternate address names the key set there.
  const origins = [ctx.target.baseUrl, ...(ctx.target.altBaseUrl ? [ctx.target.altBaseUrl] : [])].map(
    (b) => new URL(b).origin,
  );
  const keys: KeyObject[] = [];
  for (const address of [...addresses].slice(0, 2)) {
    const url = new URL(address, ctx.target.baseUrl);
    if (!origins.includes(url.origin)) {
      ctx.note(`the key set at ${address} is not on ${origins.join(' or ')}: not read`);
      continue;
    }
    const alt = url.origin !== origins[0];
    const ex = await ctx.call('GET', `${url.pathname}${url.search}`, alt ? { base: 'alt' } : {});
    if (ex.status === 200) keys.push(...findKeys(ex.json));
    else ctx.note(`the key set at ${url.pathname} answered ${ex.status}`);
  }
  return keys;
}
