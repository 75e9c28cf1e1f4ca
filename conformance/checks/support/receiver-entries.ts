// A receiver's delivery log is its own: the entries that name another receiver the kit registered.
import type { CheckContext } from '../../runner/check.ts';
import { receiverIdOf } from './one-list.ts';
import { type WebhookScenario, webhooksPath } from './webhook-scenario.ts';

/** The url a registration sent (undefined for a body that is not JSON). */
function urlSent(body: string | undefined): unknown {
  try {
    return (JSON.parse(body ?? 'null') as { url?: unknown } | null)?.url;
  } catch {
    return undefined;
  }
}

/** A field that names a receiver (webhookId, receiver_id, subscriptionId, endpoint, hookId...). */
const RECEIVER_FIELD = /^(?:webhook|receiver|subscription|endpoint|hook|listener)(?:_?id)?$/i;

/**
 * The entries of the scenario receiver's log that name another receiver the kit registered in the run: that
 * receiver's url as any value, or its id in a field named for a receiver.
 */
export function othersIn(ctx: CheckContext, s: WebhookScenario, logged: readonly unknown[]): unknown[] {
  return namingOthers(logged, otherReceivers(ctx, s));
}

/** The urls and ids of the receivers the kit registered in the run, the scenario's own left out. */
function otherReceivers(ctx: CheckContext, s: WebhookScenario): Receivers {
  const urls = new Set<string>();
  const ids = new Set<string>();
  for (const { ex } of ctx.exchanges()) {
    if (ex.method !== 'POST' || ex.status !== 200 || !new URL(ex.url).pathname.endsWith(webhooksPath())) continue;
    const url = urlSent(ex.requestBody);
    if (typeof url !== 'string' || url === s.url) continue;
    urls.add(url);
    const id = receiverIdOf((ex.json as { data?: unknown } | undefined)?.data, url);
    if (id && id !== s.webhookId) ids.add(id);
  }
  return { urls, ids };
}

/** Other receivers: their urls and ids. */
export interface Receivers {
  urls: ReadonlySet<string>;
  ids: ReadonlySet<string>;
}

/**
 * The entries that name one of `others`: its url as any value, or its id in a field named for a receiver.
 * @example namingOthers([{ id: 'd1', webhookId: 'wh_2' }], { urls: new Set(), ids: new Set(['wh_2']) }) // the entry
 */
export function namingOthers(logged: readonly unknown[], { urls, ids }: Receivers): unknown[] {
  const names = (v: unknown, key = ''): boolean => {
    if (typeof v === 'string') return urls.has(v) || (RECEIVER_FIELD.test(key) && ids.has(v));
    if (typeof v === 'number') return RECEIVER_FIELD.test(key) && ids.has(String(v));
    if (v && typeof v === 'object') return Object.entries(v).some(([k, x]) => names(x, Array.isArray(v) ? key : k));
    return false;
  };
  return logged.filter((e) => names(e));
}
