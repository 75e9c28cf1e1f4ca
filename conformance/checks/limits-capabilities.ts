import { ERROR_TABLE } from '../../simulator/contract/errors.ts';
import { LIMITS } from '../../simulator/contract/limits.ts';
import { inBatches } from '../rules/interface-routes.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { judgeBoundary, lengthBoundaries, textOfLength } from './support/boundaries.ts';
import { postConnection, requireCreationBase } from './support/connections.ts';
import { creationPlaces, judgeAcceptedThere, judgeRefusedThere } from './support/places.ts';

const { connectionCapabilities: ITEMS, capability: CAP } = LIMITS;

/** `n` distinct capability names of valid length (made up beyond the first: a 409 is a fine answer). */
const capabilityList = (first: string, n: number) =>
  Array.from({ length: n }, (_, i) => (i === 0 ? first : `ncs-conformance-capability-${i}`));

export const connectionCapabilities = defineCheck({
  name: 'limits.connection-capabilities',
  title: `capabilities of a connection: ${ITEMS.minItems}..${ITEMS.maxItems} items of length ${CAP.min}..${CAP.max} pass validation; fewer, more, shorter or longer answer 400`,
  severity: 'MUST',
  section: 'Limits',
  tags: ['limits', 'validation', 'connections'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const base = await requireCreationBase(ctx);
    const [capability] = base.capabilities;
    if (capability === undefined) ctx.skip('no capability to book was found (see connections.create)');
    // The most items the limit allows, named from the deployment's own catalog (the allowed capability
    // repeated): where the main address takes it, it is a body every place must take too, whatever the
    // deployment does with made-up names (a place's own lower cap shows only on a list it would otherwise take).
    const known = await postConnection(ctx, {
      ...base,
      scopeLabel: ctx.label('capabilities'),
      capabilities: Array.from({ length: ITEMS.maxItems }, () => capability),
    });
    const knownTaken = known.status === 200;
    if (!knownTaken)
      ctx.note(
        `${ITEMS.maxItems} items naming ${capability} answered ${known.status} at the main address (repeated names are the deployment's to refuse): the made-up list is compared in the other places instead`,
      );
    const cases = [
      ...[ITEMS.minItems - 1, ITEMS.minItems, ITEMS.maxItems, ITEMS.maxItems + 1]
        .filter((n) => n >= 0 && !(knownTaken && n === ITEMS.maxItems))
        .map((n) => ({
          capabilities: capabilityList(capability, n),
          inside: n >= ITEMS.minItems && n <= ITEMS.maxItems,
          what: `${n} capabilities`,
        })),
      ...lengthBoundaries(CAP).map(({ length, inside }) => ({
        capabilities: [textOfLength(length)],
        inside,
        what: `a capability of ${length} characters`,
      })),
    ];
    // The boundary cases book names the kit made up. Whether an unknown name is refused as a request unsuitable
    // (400) or as not booked (409) is the deployment's: a made-up name of ordinary length shows which. Where it
    // is refused 400, the cases inside the limits that carry made-up names say nothing about the limits.
    const control = await postConnection(ctx, {
      ...base,
      scopeLabel: ctx.label('capabilities'),
      capabilities: [`ncs-conformance-capability-${ctx.runId.slice(-4)}`],
    });
    const unknownRefused = control.status === ERROR_TABLE.invalid_request.status;
    if (unknownRefused)
      ctx.note(
        'an unknown capability name is refused 400 by this deployment: cases inside the limits with made-up names not judged',
      );
    await inBatches(cases, 4, async (c) => {
      const ex = await postConnection(ctx, {
        ...base,
        scopeLabel: ctx.label('capabilities'),
        capabilities: c.capabilities,
      });
      if (c.inside && unknownRefused && c.capabilities.some((x) => x !== capability)) return;
      judgeBoundary(
        ctx,
        ex,
        c.inside,
        `POST /connections with ${c.what} (limit ${ITEMS.minItems} to ${ITEMS.maxItems} items, each ${CAP.min} to ${CAP.max})`,
      );
    });
    // Too few or too many items are refused in every environment value and at the alternate address too.
    // And a second item one over an item's limit (dropped, not refused, by a tenant's own validation).
    const lists = [
      ...[ITEMS.minItems - 1, ITEMS.maxItems + 1]
        .filter((n) => n >= 0)
        .map((n) => ({
          list: capabilityList(capability, n),
          what: `${n} capabilities (limit ${ITEMS.minItems} to ${ITEMS.maxItems})`,
        })),
      { list: [capability, textOfLength(CAP.max + 1)], what: `a second capability of ${CAP.max + 1} characters` },
    ];
    const elsewhere = await creationPlaces(ctx, base.environment);
    await inBatches(
      elsewhere.flatMap((e) => lists.map((l) => ({ ...e, ...l, place: e.what }))),
      4,
      async ({ place, environment, o, list, what, accessMayDiffer }) => {
        const ex = await postConnection(
          ctx,
          { ...base, environment, scopeLabel: ctx.label('capabilities'), capabilities: list },
          o,
        );
        // 400 as at the main address (the list is the request's, whatever the names); a place's own refusal of
        // the access (401/403) is the deployment's.
        judgeRefusedThere(ctx, ex, accessMayDiffer, `POST /connections ${place} with ${what}`);
      },
    );
    // And the most items the limit allows pass validation there too (an environment's own lower cap): the list the
    // main address took, else made-up names where they are no request fault (see the control above).
    if (unknownRefused && !knownTaken) return;
    // With them, an item of the longest length allowed (a place's own shorter column).
    const longest = [capability, textOfLength(CAP.max)];
    const most: [string[], string] = knownTaken
      ? [
          Array.from({ length: ITEMS.maxItems }, () => capability),
          `${ITEMS.maxItems} capabilities (${capability} each, taken at the main address)`,
        ]
      : [capabilityList(capability, ITEMS.maxItems), `${ITEMS.maxItems} capabilities`];
    const passedIn = new Set<string>();
    await inBatches(elsewhere, 4, async ({ what, environment, o, accessMayDiffer }) => {
      const lists: [string[], string][] = [most];
      if (!unknownRefused) lists.push([longest, `a second capability of ${CAP.max} characters`]);
      for (const [list, listed] of lists) {
        const ex = await postConnection(
          ctx,
          { ...base, environment, scopeLabel: ctx.label('capabilities'), capabilities: [...list] },
          o,
        );
        judgeAcceptedThere(ctx, ex, accessMayDiffer, `POST /connections ${what} with ${listed}`);
        if (list === longest && Object.keys(o).length === 0 && ex.status !== 400 && ex.status < 500)
          passedIn.add(environment);
      }
    });
    // Each environment value the main address took, at the alternate address and under the earlier version
    // too (the same interface, no change that requires adaptation): a place's own environment reader.
    const crossed = elsewhere
      .filter((e) => !e.accessMayDiffer)
      .flatMap((e) => [...passedIn].map((environment) => ({ ...e, environment })));
    await inBatches(crossed, 4, async ({ what, environment, o }) => {
      const ex = await postConnection(
        ctx,
        { ...base, environment, scopeLabel: ctx.label('capabilities'), capabilities: [capability] },
        o,
      );
      judgeAcceptedThere(ctx, ex, false, `POST /connections ${what} in ${environment} (taken at the main address)`);
    });
  },
});
