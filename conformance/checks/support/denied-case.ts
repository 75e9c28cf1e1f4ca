import type { CheckContext } from '../../runner/check.ts';
import { type CreationBase, requireCreationBase } from './connections.ts';
import { successSamples } from './samples.ts';

type Listed = { id?: unknown; capabilities?: unknown };
const dataOf = (json: unknown) => (json as { data?: Record<string, unknown> } | undefined)?.data ?? {};

/**
 * A creation body the deployment refuses with capability_denied, from the deployment profile:
 * a named case, or a catalog capability the creation base's connector does not list. Skips when
 * the profile names none (the interface names the code, not a case every deployment refuses).
 * @example const body = await capabilityDeniedBody(ctx); await postConnection(ctx, { ...body, scopeLabel });
 */
export async function capabilityDeniedBody(ctx: CheckContext): Promise<CreationBase> {
  const declared = ctx.deployment.capabilityDeniedCase;
  if (declared === null)
    ctx.skip(
      'no capabilityDeniedCase declared (no deployment profile given, or one without the field): the kit knows no call this deployment refuses with capability_denied',
    );
  const base = await requireCreationBase(ctx);
  if (typeof declared === 'object')
    return {
      connectorId: declared.connectorId,
      environment: declared.environment ?? base.environment,
      capabilities: [declared.capability],
    };
  const samples = await successSamples(ctx);
  const json = (id: string) => samples.find((s) => s.route.id === id)?.ex.json;
  const connector = ((dataOf(json('listConnectors')).connectors as Listed[] | undefined) ?? []).find(
    (c) => c.id === base.connectorId,
  );
  const offered = new Set(Array.isArray(connector?.capabilities) ? connector.capabilities : []);
  const unoffered = ((dataOf(json('listCapabilities')).capabilities as Listed[] | undefined) ?? [])
    .map((c) => c.id)
    .find((id): id is string => typeof id === 'string' && !offered.has(id));
  if (!unoffered)
    ctx.skip(`every capability of the catalog is offered by ${base.connectorId}: no unoffered one to book`);
  return { ...base, capabilities: [unoffered] };
}
