// The router's pieces (http4s `HttpRoutes` flattened): the route record, the idempotency wrapper of modifying
// routes, and path matching with `{name}` segments.
import type { Ctx, Rec } from './http.ts';
import { idempotent, requireKey } from './idempotency.ts';
import type { Store } from './state.ts';

/** A route: whether the auth, tenant and rate-limit Kleislis apply, and whether an Idempotency-Key is required. */
export interface Route {
  method: string;
  path: string;
  auth: boolean;
  key?: boolean;
  purpose: string;
  handle: (store: Store, ctx: Ctx) => void;
}

/** A modifying route run once per Idempotency-Key (validated first: a refusal is never stored). */
export function keyed(operation: string, effect: (store: Store, ctx: Ctx) => Rec, validate?: (ctx: Ctx) => Rec) {
  return (store: Store, ctx: Ctx) => {
    const key = requireKey(ctx);
    const input = validate ? validate(ctx) : {};
    idempotent(store, ctx, `${operation}|${ctx.params.webhookId ?? ''}|${ctx.params.deliveryId ?? ''}`, key, () =>
      validate ? effect(store, { ...ctx, body: input }) : effect(store, ctx),
    );
  };
}

/** Matches a path against a template, `{name}` taking one segment (with a suffix such as `.json`). */
export function match(template: string, path: string): Record<string, string> | undefined {
  const t = template.split('/');
  const p = path.split('/');
  if (t.length !== p.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < t.length; i++) {
    const seg = t[i] ?? '';
    const got = p[i] ?? '';
    const m = /^\{(\w+)\}(.*)$/.exec(seg);
    if (!m) {
      if (seg !== got) return undefined;
      continue;
    }
    const suffix = m[2] ?? '';
    if (!got.endsWith(suffix) || got.length === suffix.length) return undefined;
    try {
      params[m[1] ?? ''] = decodeURIComponent(got.slice(0, got.length - suffix.length));
    } catch {
      return undefined; // a malformed percent-encoding names no resource: 404, not a 500
    }
  }
  return params;
}
