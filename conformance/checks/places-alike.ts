// The interface is one set of rules wherever it is offered: at the second main-domain address, for every tenant,
// for callers of the earlier version ("No change that requires adaptation of clients"). Other checks probe each
// place alone; a team's bug often sits where two meet (a gateway's per-tenant configuration at the alternate
// address, for the earlier version's callers). This check runs one short scenario of valid calls at home and in
// every place crossed with every other, and holds each place to what the home answered: nothing is expected
// that the home itself did not show, so a deployment's legal choices (seen at home too) are never judged.
import type { Exchange } from '../client/http-client.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { catalogFacts, readFacts, selfFacts, writeFacts } from './support/place-facts.ts';
import { type Observed, runScenario } from './support/place-scenario.ts';
import { crossedPlaces, type Place } from './support/places.ts';

/** An answer that is the place's own: its access or catalog (401/403/404) where the tenant differs, or a 429. */
function own(place: Place, ex: Exchange | undefined): boolean {
  if (!ex || ex.status === 429) return true;
  return place.accessMayDiffer && [401, 403, 404, 409].includes(ex.status);
}

/** Each fact the home showed, held against the place; the place's own answers (see `own`) are not judged. */
function judge(ctx: CheckContext, place: Place, home: Observed, there: Observed): void {
  const catalog = place.accessMayDiffer ? [] : catalogFacts(home, there);
  for (const f of [...selfFacts(home, there), ...readFacts(home, there), ...catalog, ...writeFacts(home, there)]) {
    if (!f.home || !f.ex || own(place, f.ex) || (!f.status && (f.ex.status < 200 || f.ex.status > 299))) continue;
    ctx.expect.that(f.there, {
      expected: `${f.what} ${place.what}, as at home (${f.rule})`,
      ...(f.observed ? { observed: f.observed } : {}),
      exchange: f.ex,
    });
  }
}

export const placesAlike = defineCheck({
  name: 'places.scenario-alike',
  title:
    'a short scenario of valid calls (self-description, list, capability check, creation, replay, conflict, audit log) answers in every place crossed with every other (alternate address x second tenant x earlier version) as it does at home',
  severity: 'MUST',
  section: 'Network Connections Service Interface',
  tags: ['places', 'base-urls', 'tenants', 'versions'],
  mutating: true,
  requires: ['token'],
  async run(ctx) {
    const places = await crossedPlaces(ctx);
    if (!places.length)
      ctx.skip('no other place to compare: no --alt-base-url, --other-tenant or earlier version served');
    const home = await runScenario(ctx);
    for (const place of places) judge(ctx, place, home, await runScenario(ctx, place, home));
    ctx.note(`compared with home: ${places.map((p) => p.what).join('; ')}`);
  },
});
