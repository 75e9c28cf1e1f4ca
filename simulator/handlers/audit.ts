import { AUDIT_DEFAULTS } from '../contract/simulator-defaults.ts';
import { ok } from '../core/reply.ts';
import { andThen } from '../state/ports/maybe-promise.ts';
import type { HandlerDeps, HandlerGroup } from './types.ts';

export const auditHandlers = {
  getAuditLog(ctx, deps) {
    const tenant = ctx.access.tenant;
    const limit = ctx.query.limit === undefined ? AUDIT_DEFAULTS.defaultLimit : Number(ctx.query.limit);
    const before = ctx.query.before === undefined ? undefined : Number(ctx.query.before);
    const page = deps.audit.list(tenant, { limit, ...(before !== undefined ? { before } : {}) });
    return andThen(page, ({ entries, proof }) => ok({ tenant, count: entries.length, entries, proof }));
  },
} satisfies HandlerGroup<Pick<HandlerDeps, 'audit'>>;
