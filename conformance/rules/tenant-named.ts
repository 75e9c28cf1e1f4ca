// "entry belongs to another tenant" is a cause the Errors table gives for not_found, and errors carry "no internal
// details": a 404 that names the tenant owning the entry tells a caller another tenant's data. The kit knows the
// tenants of its run (the first, --other-tenant, --foreign-tenant): an error's text naming one of them other than
// the tenant the call named is that leak.
import type { Exchange } from '../client/exchange.ts';

const header = (headers: Record<string, string>, name: string) =>
  Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];

/** Whether `text` names `id` as a whole (not inside a longer name). */
const names = (text: string, id: string) =>
  new RegExp(`(?<![\\w-])${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`).test(text);

/**
 * Why a 404's error names a tenant other than the call's, if it does.
 * @example otherTenantNamed(ex, ['east', 'west']) // 'error.hint names tenant east, the call named west'
 */
export function otherTenantNamed(ex: Exchange, tenants: readonly string[]): string | undefined {
  if (ex.status !== 404 || !tenants.length) return undefined;
  const error = (ex.json as { error?: Record<string, unknown> } | undefined)?.error;
  if (!error || typeof error !== 'object') return undefined;
  const sent = header(ex.requestHeaders, 'x-service-tenant');
  for (const field of ['message', 'detail', 'hint']) {
    const text = error[field];
    if (typeof text !== 'string') continue;
    const other = tenants.find((t) => t !== sent && names(text, t));
    if (other) return `error.${field} names tenant ${other}, the call named ${sent ?? 'none'}`;
  }
  return undefined;
}
