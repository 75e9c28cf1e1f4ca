import { nextPage } from '../checks/support/audit-paging.ts';
import type { Exchange } from '../client/http-client.ts';
import type { ResponseRule } from './response-rules.ts';

/**
 * Rules that hold an answer to itself and to the rest of the run, whatever the tenant, filter or page
 * that produced it: a list's count is its length and names each entry once; a key issued now expires
 * later; a capability's flags are the same wherever the run sees them; JSON is UTF-8.
 */
type Json = Record<string, unknown>;
const dataOf = (ex: Exchange) => (ex.json as { data?: Json } | undefined)?.data;
const metaOf = (ex: Exchange) => (ex.json as { meta?: Json } | undefined)?.meta;

/**
 * MUST (GET lists: "data: count (integer), <list> (array …)"): on every 200 list answer of a route whose
 * fields the interface shows, count is the number of entries listed, and no entry id appears twice. A
 * route whose response fields are not shown (the audit log) may count what it likes (a paged log's count
 * is often the total, as Django REST framework's is).
 * @example countAgreementRule(listExchange, info) // 'count 0 but 2 entries listed'
 */
export const countAgreementRule: ResponseRule = (ex, { route }) => {
  if (route.method !== 'GET' || ex.status !== 200 || route.fieldsNotShown) return undefined;
  const data = dataOf(ex);
  if (!data || typeof data.count !== 'number') return undefined;
  const lists = Object.entries(data).filter(([, v]) => Array.isArray(v)) as [string, unknown[]][];
  if (lists.length !== 1) return undefined;
  const [name, list] = lists[0] as [string, unknown[]];
  // A page of a longer list (paging is not shown): its count may be the total (Django REST framework's), where the
  // answer offers the next page and lists some; never fewer than it lists.
  const paged = data.count > list.length && list.length > 0 && (nextPage(ex) !== undefined || hasPrevious(ex, data));
  if (data.count !== list.length && !paged)
    return `data.count ${data.count} but ${list.length} entries in data.${name}`;
  const ids = list.map((e) => (e as Json | null)?.id).filter((id) => typeof id === 'string');
  const twice = ids.find((id, i) => ids.indexOf(id) !== i);
  return twice === undefined ? undefined : `data.${name} lists ${String(twice)} twice`;
};

/** A later page: a Link header with rel=prev, or a previous page named in data (DRF's `previous`, `prevPage`). */
function hasPrevious(ex: Exchange, data: Json): boolean {
  if (/\brel="?prev(?:ious)?"?/i.test(ex.headers.link ?? '')) return true;
  return Object.entries(data).some(
    ([k, v]) =>
      /^prev(?:ious)?(?:[-_]?(?:page|url|link|cursor))?$/i.test(k) &&
      (typeof v === 'string' ? v !== '' : typeof v === 'number'),
  );
}

/**
 * MUST (Idempotency key result: expiresAt): a key issued by this call expires after the call's meta.at.
 * @example expiryAfterIssueRule(keyExchange, info) // 'expiresAt … is not after meta.at …'
 */
export const expiryAfterIssueRule: ResponseRule = (ex, { route }) => {
  if (route.id !== 'createIdempotencyKey' || ex.status !== 200) return undefined;
  const expires = Date.parse(String(dataOf(ex)?.expiresAt));
  const at = Date.parse(String(metaOf(ex)?.at));
  if (Number.isNaN(expires) || Number.isNaN(at)) return undefined;
  return expires > at
    ? undefined
    : `expiresAt ${String(dataOf(ex)?.expiresAt)} is not after meta.at ${String(metaOf(ex)?.at)}: the key issued now has already expired`;
};

/**
 * SHOULD (JSON, RFC 8259 §8.1: exchanged JSON is UTF-8): a JSON answer that names a charset names UTF-8
 * (a client decoding by the declared charset would misread every non-ASCII name).
 * @example jsonCharsetRule(ex, info) // 'Content-Type application/json; charset=iso-8859-1'
 */
export const jsonCharsetRule: ResponseRule = (ex) => {
  const type = Object.entries(ex.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(type)?.[1];
  if (!/json/i.test(type) || !charset || /^utf-?8$/i.test(charset)) return undefined;
  return `Content-Type ${type}: JSON is UTF-8`;
};

/** The flags of one capability as an answer states them. */
interface Flags {
  critical: unknown;
  idempotencyRequired: unknown;
}

/** Every (capability id, flags, where) an answer states: catalog entries, decisions, connection entries. */
function statedFlags(ex: Exchange): { id: string; flags: Flags }[] {
  const data = dataOf(ex);
  if (ex.status !== 200 || !data) return [];
  const out: { id: string; flags: Flags }[] = [];
  const add = (id: unknown, f: Json | undefined) => {
    if (typeof id === 'string' && f && 'critical' in f && 'idempotencyRequired' in f)
      out.push({ id, flags: { critical: f.critical, idempotencyRequired: f.idempotencyRequired } });
  };
  for (const c of Array.isArray(data.capabilities) ? (data.capabilities as Json[]) : []) add(c?.id ?? c?.capability, c);
  const decision = data.decision as Json | undefined;
  add(decision?.capability, decision);
  const connections = Array.isArray(data.connections) ? (data.connections as Json[]) : [data];
  for (const con of connections)
    for (const c of Array.isArray(con?.capabilities) ? (con.capabilities as Json[]) : [])
      if (c && typeof c === 'object') add(c.capability, c);
  return out;
}

/**
 * SHOULD (Capability: critical, idempotencyRequired; CapabilityDecision and Connection repeat them):
 * across the run, a capability id carries the same flags in the catalog, in decisions and in
 * connections. The first answer that states other flags than the catalog (or the first statement) is
 * returned.
 * @example capabilityFlagProblems(exchanges) // [{ problem: 'orders.read: critical true here, false in …', ex }]
 */
export function capabilityFlagProblems(exchanges: readonly Exchange[]): { problem: string; ex: Exchange }[] {
  const first = new Map<string, { flags: Flags; where: string }>();
  const problems: { problem: string; ex: Exchange }[] = [];
  for (const ex of exchanges) {
    const where = `${ex.method} ${new URL(ex.url).pathname}`;
    for (const { id, flags } of statedFlags(ex)) {
      const seen = first.get(id);
      if (!seen) {
        first.set(id, { flags, where });
        continue;
      }
      for (const k of ['critical', 'idempotencyRequired'] as const)
        if (seen.flags[k] !== flags[k]) {
          problems.push({
            problem: `${id}: ${k} ${String(flags[k])} here, ${String(seen.flags[k])} in ${seen.where}`,
            ex,
          });
          break;
        }
    }
  }
  return problems;
}

/** The longest Retry-After taken as seconds: a window the interface's clients "retry with growing intervals" within. */
export const MAX_RETRY_AFTER_SECONDS = 3600;

/**
 * SHOULD (Limits: "Retry-After (recommended wait in seconds)"): a 429's wait is at most an hour. The
 * window's length is not shown, so the kit assumes none is longer; a value of thousands suggests
 * milliseconds, which a client would read as hours.
 * @example retryAfterSecondsRule(limited, info) // 'Retry-After 30000: …'
 */
export const retryAfterSecondsRule: ResponseRule = (ex) => {
  if (ex.status !== 429) return undefined;
  const value = Object.entries(ex.headers)
    .find(([k]) => k.toLowerCase() === 'retry-after')?.[1]
    ?.trim();
  if (!value || !/^\d+$/.test(value) || Number(value) <= MAX_RETRY_AFTER_SECONDS) return undefined;
  return `Retry-After ${value}: more than ${MAX_RETRY_AFTER_SECONDS} s (${Math.round(Number(value) / 3600)} h); a wait in milliseconds?`;
};
