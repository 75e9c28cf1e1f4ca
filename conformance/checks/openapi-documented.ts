// openapi.json describes the interface: what it documents for the interface's endpoints must not
// contradict the interface (success status, request limits). What it leaves out is not judged here.
import { interfaceRoutes } from '../rules/interface-routes.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { listed } from './support/listed.ts';
import { deref, type OpenApiLike, operationLocation, requireOpenApi } from './support/openapi.ts';
import { judgeLimits, type LimitFinding, type LimitVerdicts } from './support/openapi-limits-judge.ts';

/** The document's limits judged once a run (two checks report its two sides). */
async function limitVerdicts(ctx: CheckContext) {
  const { ex, doc } = await requireOpenApi(ctx);
  const verdicts = await ctx.shared<LimitVerdicts>('openapi-limit-verdicts', async () => judgeLimits(doc));
  return { ex, verdicts };
}

const shown = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
};

/** The findings of one kind, one line per request value: which boundary values and why. */
function byField(findings: LimitFinding[]): { label: string; at: string; lines: string[] }[] {
  const groups = new Map<string, { label: string; at: string; lines: string[] }>();
  for (const f of findings) {
    const label = `${f.field.route.method} ${f.field.route.path} ${f.field.in} ${f.field.name}`;
    const group = groups.get(label) ?? { label, at: f.at, lines: [] };
    group.lines.push(`${shown(f.case.value)} (${f.case.what})${f.errors ? `: ${f.errors}` : ''}`);
    groups.set(label, group);
  }
  return [...groups.values()];
}

export const openApiSuccessStatus = defineCheck({
  name: 'openapi.success-status-200',
  title:
    "openapi.json documents every interface operation's success as 200, no other 2xx (what it leaves undocumented is not judged)",
  severity: 'MUST',
  section: 'Endpoints',
  tags: ['openapi', 'discovery'],
  mutating: false,
  async run(ctx) {
    const { ex, doc } = await requireOpenApi(ctx);
    for (const d of documentedSuccess(doc)) {
      ctx.expect.that(d.other.length === 0, {
        expected: `${d.method} ${d.path} documents its success as 200 ("Success responses use status 200 and the success envelope")`,
        observed: `its responses document ${d.other.join(', ')}${d.success.includes('200') ? ' beside 200' : ' instead of 200'} (documented responses: ${d.codes.join(', ')})`,
        exchange: ex,
      });
      if (d.success.length === 0) ctx.note(`${d.method} ${d.path}: openapi.json documents no success response`);
    }
  },
});

/**
 * The responses the document gives each interface operation it documents: every code, the 2xx among
 * them, and those 2xx other than 200 ("2XX" is a range that includes 200: looser, not a contradiction).
 * @example documentedSuccess(doc).filter((d) => d.other.length) // [{ method: 'POST', path: '…/connections', other: ['201'], … }]
 */
export function documentedSuccess(doc: OpenApiLike) {
  const out: { method: string; path: string; codes: string[]; success: string[]; other: string[] }[] = [];
  for (const route of interfaceRoutes()) {
    const loc = operationLocation(doc, route.method, route.path);
    if (!loc) continue; // discovery.interface-routes-listed reports an operation left out
    const responses = deref(doc, loc.op.responses, [...loc.at, 'responses']).value;
    const codes = responses && typeof responses === 'object' ? Object.keys(responses) : [];
    const success = codes.filter((c) => /^2/.test(c));
    const other = success.filter((c) => c !== '200' && c.toUpperCase() !== '2XX');
    out.push({ method: route.method, path: route.path, codes, success, other });
  }
  return out;
}

export const openApiLimitsNotNarrower = defineCheck({
  name: 'openapi.limits-not-narrower',
  title:
    "openapi.json's schema of every request value the interface limits accepts the interface's boundary values (lengths, item counts, the key pattern, cursor minimum, the Environment enumeration)",
  severity: 'MUST',
  section: 'Limits',
  tags: ['openapi', 'limits'],
  mutating: false,
  async run(ctx) {
    const { ex, verdicts } = await limitVerdicts(ctx);
    for (const g of byField(verdicts.findings.filter((f) => f.kind === 'narrower')))
      ctx.fail({
        expected: `openapi.json documents ${g.label} as the interface limits it: every value within the Limits table is accepted`,
        observed: `the documented schema (openapi.json${g.at}) refuses ${listed(g.lines)}`,
        exchange: ex,
      });
    for (const g of byField(verdicts.findings.filter((f) => f.kind === 'characters')))
      ctx.note(
        `${g.label}: openapi.json${g.at} restricts its characters by a pattern or format of its own (the interface fixes its length only; identifiers' format is not shown): not judged; it refuses ${listed(g.lines)}`,
      );
    if (verdicts.notJudged.length) ctx.note(`not judged: ${verdicts.notJudged.join(', ')}`);
  },
});

export const openApiLimitsNotWider = defineCheck({
  name: 'openapi.limits-not-wider',
  title:
    "openapi.json's schema of every request value the interface limits refuses the values past the interface's limits (a looser description is legal, but misleads clients)",
  severity: 'SHOULD',
  section: 'Limits',
  tags: ['openapi', 'limits'],
  mutating: false,
  async run(ctx) {
    const { ex, verdicts } = await limitVerdicts(ctx);
    for (const g of byField(verdicts.findings.filter((f) => f.kind === 'wider')))
      ctx.fail({
        expected: `openapi.json documents ${g.label} with the interface's limits: values past them are refused`,
        observed: `the documented schema (openapi.json${g.at}) accepts ${listed(g.lines)}`,
        exchange: ex,
      });
  },
});

export const openApiDocumentedChecks = [openApiSuccessStatus, openApiLimitsNotNarrower, openApiLimitsNotWider];
