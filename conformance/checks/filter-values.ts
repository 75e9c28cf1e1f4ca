// A list filter is "string | no" and "restricts to one category": any text, nothing narrower. A value no entry
// has restricts the list to nothing; written with a blank, an apostrophe or a letter beyond ASCII (as category
// names are written by people) it is still a value no entry has. A deployment may refuse unknown values (an
// enum of its own); what it may not do is take one such value and refuse another for its characters.
import type { Exchange } from '../client/http-client.ts';
import { operations } from '../generated/request-fields.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';

/** The count of a list answer (its data's one array), or undefined when the answer is not a list. */
const listed = (ex: Exchange) => {
  const data = (ex.json as { data?: Record<string, unknown> } | undefined)?.data;
  const list = data && Object.values(data).find(Array.isArray);
  return Array.isArray(list) ? list.length : undefined;
};

/** The same unknown value in the characters names are written with. */
const VARIANTS: readonly { what: string; value: (plain: string) => string }[] = [
  { what: 'with a blank', value: (p) => `no such ${p}` },
  { what: 'with an apostrophe and a blank', value: (p) => `Chef's ${p}` },
  { what: 'with letters beyond ASCII', value: (p) => `Café Zürich ${p}` },
];

export const filterValuesAlike = defineCheck({
  name: 'requests.filter-values-alike',
  title:
    "a list filter's value is any text: where a value no entry has lists nothing, the same with a blank, an apostrophe or letters beyond ASCII lists nothing too (not 400, never a fault)",
  severity: 'MUST',
  section: 'Endpoints',
  tags: ['validation', 'catalog'],
  mutating: false,
  requires: ['token'],
  async run(ctx: CheckContext) {
    // The interface's own string filters of its JSON lists (the audit log's further parameters are not shown).
    const filtered = operations().flatMap(({ route, fields }) =>
      route.method === 'GET' && route.auth && (route.kind ?? 'json') === 'json'
        ? fields
            .filter((f) => f.in === 'query' && !f.required && f.type.type === 'string')
            .map((f) => ({ route, name: f.name }))
        : [],
    );
    if (!filtered.length) ctx.skip('no list route of the interface has a filter');
    const plain = ctx.label('no-such');
    for (const { route, name } of filtered) {
      const ref = await ctx.call('GET', route.path, { query: { [name]: plain } });
      if (ref.status !== 200 || listed(ref) !== 0) {
        ctx.note(
          `GET ${route.path}?${name}=${plain} answered ${ref.status}${ref.status === 200 ? ` listing ${listed(ref)}` : ''}: its other values not compared`,
        );
        continue;
      }
      for (const v of VARIANTS) {
        const value = v.value(plain);
        const ex = await ctx.call('GET', route.path, { query: { [name]: value } });
        if (ex.status === 429) continue;
        ctx.expect.that(ex.status === 200 && listed(ex) === 0, {
          expected: `GET ${route.path} with ${name} ${JSON.stringify(value)} (${v.what}) lists nothing, as ${JSON.stringify(plain)} did (200, an empty list): a filter is any text`,
          observed: `${ex.status}${ex.status === 200 ? `, ${listed(ex)} entries` : ''}`,
          exchange: ex,
        });
      }
    }
  },
});
