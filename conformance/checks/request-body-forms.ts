// "Body (JSON)": a JSON object is the same object whatever the order of its members and the whitespace between
// them (RFC 8259 §4: names, values; order and spacing carry nothing). Clients' serialisers differ in both, and a
// handler that reads the body by position, or a gateway that parses only some forms, answers another decision.
// The capability check is a read with a body, so the same body can be sent in each form and the answers
// compared; a JSON label with a charset and an unknown member may be refused, but where taken, answer alike.
import type { Exchange } from '../client/http-client.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { jsonDiff } from '../runner/json-diff.ts';
import { requireCreationBase } from './support/connections.ts';
import { capabilityCheckRoute } from './support/error-probes.ts';
import { type Place, placesWithVersion } from './support/places.ts';

type Body = Record<string, unknown>;

/** One form of the same body: how it is written and labelled, and whether it must be taken. */
interface BodyForm {
  what: string;
  text: (body: Body) => string;
  contentType?: string;
  /** JSON's own sameness (order, spacing): must be taken; otherwise a refusal is the deployment's rule. */
  must: boolean;
}

/** The members rotated so that member `by` comes first: every member leads once over the rotations. */
const rotated = (body: Body, by: number) => {
  const entries = Object.entries(body);
  return Object.fromEntries([...entries.slice(by), ...entries.slice(0, by)]);
};

export const BODY_FORMS: readonly BodyForm[] = [
  { what: 'its members in another order (the second first)', text: (b) => JSON.stringify(rotated(b, 1)), must: true },
  { what: 'its members in another order (the third first)', text: (b) => JSON.stringify(rotated(b, 2)), must: true },
  { what: 'spaced over lines', text: (b) => `${JSON.stringify(b, null, 2)}\n`, must: true },
  {
    what: 'labelled application/json; charset=utf-8',
    text: (b) => JSON.stringify(b),
    contentType: 'application/json; charset=utf-8',
    must: false,
  },
  {
    what: 'with a member the interface does not name',
    text: (b) => JSON.stringify({ ...b, note: 'ncs' }),
    must: false,
  },
];

const dataOf = (ex: Exchange) => (ex.json as { data?: unknown } | undefined)?.data;

/** The plain body twice (what differs between them is per read), then each form, judged against the first. */
async function judgeForms(ctx: CheckContext, body: Body, place?: Place) {
  const where = place ? ` ${place.what}` : '';
  const path = capabilityCheckRoute().path;
  const send = (text: string, contentType = 'application/json') =>
    ctx.call('POST', path, {
      ...(place?.call ?? {}),
      body: text,
      headers: { ...(place?.call.headers ?? {}), 'content-type': contentType },
    });
  const plain = await send(JSON.stringify(body));
  if (plain.status !== 200) return void ctx.note(`POST ${path}${where} answered ${plain.status}: forms not compared`);
  const again = await send(JSON.stringify(body));
  const perRead = new Set(jsonDiff(dataOf(plain), dataOf(again), Infinity).map((d) => d.path));
  for (const form of BODY_FORMS) {
    const ex = await send(form.text(body), form.contentType);
    if (ex.status === 429) continue;
    if (ex.status !== 200 && !form.must) continue;
    const diff =
      ex.status === 200 ? jsonDiff(dataOf(plain), dataOf(ex), Infinity).filter((d) => !perRead.has(d.path)) : [];
    ctx.expect.that(ex.status === 200 && diff.length === 0, {
      expected: `POST ${path}${where} with the same body ${form.what} answers ${form.must ? '200 with' : 'where taken,'} the same data as the body as first written (the same JSON object)`,
      observed:
        ex.status !== 200
          ? `${ex.status}`
          : diff
              .slice(0, 3)
              .map((d) => `${d.path}: ${d.expected} -> ${d.observed}`)
              .join('; '),
      exchange: ex,
    });
  }
}

export const bodyFormsAlike = defineCheck({
  name: 'requests.body-forms-alike',
  title:
    'the same JSON body in another form (members in another order, spaced over lines) is taken and answered alike; labelled with a charset or carrying an unknown member, alike where taken (POST /capabilities, in every place)',
  severity: 'MUST',
  section: 'POST /api/public/v1/capabilities',
  tags: ['validation'],
  mutating: false,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const base = await requireCreationBase(ctx);
    // An environment other than the default (sandbox): a form whose environment is dropped answers the default.
    const environment = base.environment === 'sandbox' ? 'pilot' : base.environment;
    const body = { connectorId: base.connectorId, capability: base.capabilities[0], environment };
    await judgeForms(ctx, body);
    for (const place of await placesWithVersion(ctx)) await judgeForms(ctx, body, place);
  },
});
