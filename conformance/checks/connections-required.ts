import { SUPPORTED_VERSIONS } from '../../simulator/contract/versions.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { CONNECTIONS_PATH, postConnection, requireCreationBase } from './support/connections.ts';
import { judgeRefusedThere, otherPlaces } from './support/places.ts';

const EARLIER = SUPPORTED_VERSIONS[1] ?? '2026-06-12';

// POST /connections: "Body (JSON), all fields required", and "A sample call for this endpoint sends a field
// restaurantId in place of scopeLabel; the field list above is the schema." At the main address for the first
// tenant the generated probes send every body without each field; the other places the interface is offered
// in (the alternate address, the second tenant) are held to the same schema here: a gateway or a tenant's
// configuration that fills a default or maps the sample's field makes a creation the interface refuses.

export const requiredEverywhere = defineCheck({
  name: 'connections.required-everywhere',
  title:
    "POST /connections without environment, or with the sample's restaurantId in place of scopeLabel, answers 400 at the alternate address, for the second tenant and for a caller of the earlier version too; a field the schema does not list is treated alike at both addresses",
  severity: 'MUST',
  section: 'POST /api/public/v1/connections',
  tags: ['connections', 'validation'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const places = otherPlaces(ctx);
    const base = await requireCreationBase(ctx);
    // A caller of the earlier published version too: its changes since are the delivery log and the generated
    // reference, so the connection's fields were required then as now (a refusal of the version itself is a
    // 400 as well). The sample's restaurantId is not sent there: an earlier version may have known that name.
    for (const [body, what] of [
      [
        (({ environment: _e, ...rest }) => ({ ...rest, scopeLabel: ctx.label('environment-left-out') }))(base),
        'without environment',
      ],
      [base, 'without scopeLabel'],
    ] as const) {
      const ex = await postConnection(ctx, body, { headers: { 'Service-Version': EARLIER } });
      judgeRefusedThere(
        ctx,
        ex,
        true,
        `POST ${CONNECTIONS_PATH()} with Service-Version ${EARLIER} ${what} (all fields required)`,
      );
    }
    for (const place of places) {
      const { environment: _e, ...noEnvironment } = { ...base, scopeLabel: ctx.label('environment-left-out') };
      const sample = { ...base, restaurantId: ctx.label('sample-restaurant') };
      for (const [body, what] of [
        [noEnvironment, 'without environment (all fields required)'],
        [sample, "with restaurantId in place of scopeLabel (the sample call's field; the field list is the schema)"],
      ] as const) {
        const ex = await postConnection(ctx, body, place.call);
        judgeRefusedThere(ctx, ex, place.accessMayDiffer, `POST ${CONNECTIONS_PATH()} ${place.what} ${what}`);
      }
    }
    // A field the schema does not list, beside every listed one: the deployment's to refuse or to ignore, but
    // one interface at both addresses does the same (a gateway at one of them dropping what the other refuses).
    if (!ctx.target.altBaseUrl) return;
    const extra = { ...base, scopeLabel: ctx.label('unknown-field'), restaurantId: ctx.label('sample-restaurant') };
    const main = await postConnection(ctx, extra);
    const alt = await postConnection(ctx, { ...extra, scopeLabel: ctx.label('unknown-field-alt') }, { base: 'alt' });
    const taken = (ex: { status: number }) => ex.status >= 200 && ex.status < 300;
    ctx.expect.that(taken(main) === taken(alt), {
      expected: `POST ${CONNECTIONS_PATH()} with a field the schema does not list (restaurantId) beside every listed one is ${taken(main) ? 'taken' : 'refused'} at the alternate base URL as at the main one (the same interface)`,
      observed: `main ${main.status}, alternate ${alt.status}`,
      exchange: alt,
    });
  },
});
