import { type CheckContext, defineCheck } from '../runner/check.ts';
import { CONNECTIONS_PATH, createConnectionRoute, requireCreationBase } from './support/connections.ts';
import { dataDiff, type OtherForm, otherForms, PATH_FORMS, sameAnswer } from './support/other-forms.ts';

const ok = (status: number) => status >= 200 && status < 300;

/** OPTIONS of every route the forms reach, without credentials (a CORS-less client asking what a route allows). */
const optionsCalls = (ctx: CheckContext, forms: readonly OtherForm[]) =>
  ctx.shared('options-calls', () =>
    Promise.all(
      [...new Set(forms.map((f) => f.route.path))].map((p) => ctx.call('OPTIONS', p, { credentials: 'none' })),
    ),
  );

/** Judges each form: a refusal (3xx the client did not follow, 4xx) is "no such route"; a success is the route's. */
function judge(ctx: CheckContext, forms: readonly OtherForm[]) {
  for (const f of forms) {
    if (!ok(f.ex.status)) continue;
    ctx.expect.that(ok(f.ref.status), {
      expected: `${f.what} is refused as the route is (${f.ref.status}) or taken as no route: never a success`,
      observed: `${f.ex.status} where ${f.route.method} ${f.route.path} answered ${f.ref.status}`,
      exchange: f.ex,
    });
    if (!ok(f.ref.status)) continue;
    ctx.expect.that(f.ex.status === 200 && sameAnswer(f), {
      expected: `${f.what}, taken as the route, answers as the route does: 200${f.sameData && !f.head ? ' with the same data' : ''}`,
      observed:
        f.ex.status !== 200 ? `status ${f.ex.status}` : `the data differs from ${f.route.method} ${f.route.path}'s`,
      exchange: f.ex,
      ...(f.ex.status === 200 && !f.head ? { diff: dataDiff(f).slice(0, 12) } : {}),
    });
  }
}

export const otherFormsAsRoute = defineCheck({
  name: 'requests.other-forms-as-route',
  title:
    'a route in another form (a trailing slash, a percent-encoded letter, HEAD for a GET, OPTIONS, a query parameter sent twice with one value) is refused or answered as the route: never a success the route refuses, another success status or other data, nor a refusal saying ok true',
  severity: 'MUST',
  section: 'Endpoints',
  tags: ['validation', 'auth'],
  mutating: false,
  async run(ctx) {
    const forms = await otherForms(ctx);
    judge(ctx, forms);
    // Whatever a deployment makes of a form, a refusal it words as an envelope says ok false ("always false").
    for (const ex of [...forms.map((f) => f.ex), ...(await optionsCalls(ctx, forms))])
      ctx.expect.that(ex.status < 400 || (ex.json as { ok?: unknown } | undefined)?.ok !== true, {
        expected: `${ex.method} ${new URL(ex.url).pathname}: a refusal (${ex.status}) never says ok true (the failure envelope's ok is always false)`,
        observed: 'ok true',
        exchange: ex,
      });
  },
});

export const otherFormsNoFault = defineCheck({
  name: 'requests.other-forms-no-fault',
  title:
    'a route in another form (a trailing slash, a percent-encoded letter, HEAD, OPTIONS, a query parameter sent twice) gets an answer or a refusal, not a fault of the service (5xx)',
  severity: 'SHOULD',
  section: 'Errors',
  tags: ['validation'],
  mutating: false,
  async run(ctx) {
    const forms = await otherForms(ctx);
    for (const ex of [...forms.map((f) => f.ex), ...(await optionsCalls(ctx, forms))])
      ctx.expect.that(ex.status < 500, {
        expected: `${ex.method} ${ex.url} is answered or refused (a client's request, not a fault)`,
        observed: `status ${ex.status}`,
        exchange: ex,
      });
  },
});

export const otherFormsKeyRequired = defineCheck({
  name: 'requests.other-forms-key-required',
  title:
    'POST /connections in another path form (a trailing slash, a percent-encoded letter) without an Idempotency-Key is refused as the route refuses it (428) or taken as no route: never created',
  severity: 'MUST',
  section: 'POST /api/public/v1/connections',
  tags: ['idempotency'],
  mutating: true,
  requires: ['token'],
  async run(ctx) {
    const base = await requireCreationBase(ctx);
    const json = { ...base, scopeLabel: ctx.label('other-form') };
    const bases = ctx.target.altBaseUrl ? (['main', 'alt'] as const) : (['main'] as const);
    const forms: OtherForm[] = [];
    for (const at of bases) {
      const ref = await ctx.call('POST', CONNECTIONS_PATH(), { base: at, json });
      for (const form of PATH_FORMS) {
        const path = form.path(CONNECTIONS_PATH());
        const ex = await ctx.call('POST', path, { base: at, json });
        const where = at === 'alt' ? ' at the alternate base URL' : '';
        forms.push({
          what: `POST ${path}${where} without an Idempotency-Key (${form.name})`,
          ref,
          ex,
          sameData: false,
          head: false,
          route: createConnectionRoute(),
        });
      }
    }
    judge(ctx, forms);
  },
});

export const otherFormChecks = [otherFormsAsRoute, otherFormsKeyRequired, otherFormsNoFault];
