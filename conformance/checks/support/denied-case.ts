import type { CheckContext } from '../../runner/check.ts';
import { type CreationBase, requireCreationBase } from './connections.ts';
import { successSamples } from './samples.ts';

type Listed = { id?: unknown; capabilities?: unknown; critical?: unknown };
const dataOf = (json: unknown) => (json as { data?: Record<string, unknown> } | undefined)?.data ?? {};

/**
 * Creation bodies the deployment refuses with capability_denied, from the deployment profile: a named case,
 * or catalog capabilities the creation base's connector does not list, one of each criticality the catalog
 * has (a refusal routed by the capability's flags, critical ones through another guard, shows in one of
 * them). Skips when the profile names none (the interface names the code, not a case every deployment refuses).
 * @example for (const body of await capabilityDeniedBodies(ctx)) await postConnection(ctx, { ...body, scopeLabel });
 */
export async function capabilityDeniedBodies(ctx: CheckContext): Promise<CreationBase[]> {
  const declared = ctx.deployment.capabilityDeniedCase;
  if (declared === null)
    ctx.skip(
      'no capabilityDeniedCase declared (no deployment profile given, or one without the field): the kit knows no call this deployment refuses with capability_denied',
    );
  const base = await requireCreationBase(ctx);
  if (typeof declared === 'object')
    return [
      {
        connectorId: declared.connectorId,
        environment: declared.environment ?? base.environment,
        capabilities: [declared.capability],
      },
    ];
  const samples = await successSamples(ctx);
  const json = (id: string) => samples.find((s) => s.route.id === id)?.ex.json;
  const connector = ((dataOf(json('listConnectors')).connectors as Listed[] | undefined) ?? []).find(
    (c) => c.id === base.connectorId,
  );
  const offered = new Set(Array.isArray(connector?.capabilities) ? connector.capabilities : []);
  const unoffered = ((dataOf(json('listCapabilities')).capabilities as Listed[] | undefined) ?? []).filter(
    (c): c is Listed & { id: string } => typeof c.id === 'string' && !offered.has(c.id),
  );
  if (!unoffered.length)
    ctx.skip(`every capability of the catalog is offered by ${base.connectorId}: no unoffered one to book`);
  // The first of each criticality, in the catalog's order (the first unoffered one first, as before).
  const ofEach = unoffered.filter(
    (c, i) => unoffered.findIndex((d) => (d.critical === true) === (c.critical === true)) === i,
  );
  return ofEach.map((c) => ({ ...base, capabilities: [c.id] }));
}
