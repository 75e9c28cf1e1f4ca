import { AUDIT_DEFAULTS } from '../contract/simulator-defaults.ts';
import { ok } from '../core/reply.ts';
import type { HandlerDeps, HandlerGroup } from './types.ts';

export const auditHandlers = {
  getAuditLog(ctx, deps) {
    const tenant = ctx.access.tenant;
    const limit = ctx.query.limit === undefined ? AUDIT_DEFAULTS.defaultLimit : Number(ctx.query.limit);
    const before = ctx.query.before === undefined ? undefined : Number(ctx.query.before);
    const { entries, proof } = deps.audit.list(tenant, { limit, ...(before !== undefined ? { before } : {}) });
    return ok({ tenant, count: entries.length, entries, proof });
  },
} satisfies HandlerGroup<Pick<HandlerDeps, 'audit'>>;
