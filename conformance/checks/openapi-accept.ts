// openapi.json is "the machine-readable description of this interface as a JSON object (OpenAPI 3.1)",
// whatever JSON media type a client's Accept names: a tool asking for OpenAPI's own media type, a client
// sending a charset parameter or */* gets the same 3.1 document (a gateway serving a 3.0 rendering to one
// of them breaks the description for that client). A refusal of an odd Accept is noted, not judged.
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { documentExchange, requireOpenApi } from './support/openapi.ts';

/** Accept values clients and OpenAPI tools send for the document. */
export const DOCUMENT_ACCEPTS = [
  'application/vnd.oai.openapi+json',
  'application/json; charset=utf-8',
  'application/json, text/plain, */*',
  '*/*',
];

/** The largest document read again per Accept value (the interface's own is about a tenth of it). */
const MAX_DOCUMENT_CHARS = 1_000_000;

const versionOf = (json: unknown) => (json as { openapi?: unknown } | undefined)?.openapi;

export const openApiAcceptAlike = defineCheck({
  name: 'openapi.accept-alike',
  title:
    "GET openapi.json answered 200 to the Accept values clients and OpenAPI tools send (OpenAPI's own media type, a charset, */*) is the same OpenAPI 3.1 document",
  severity: 'MUST',
  section: 'GET /api/public/v1/openapi.json',
  tags: ['openapi', 'discovery'],
  mutating: false,
  async run(ctx: CheckContext) {
    const { ex: served, doc } = await requireOpenApi(ctx);
    // Each variant is read whole and kept with the run's answers: a document far beyond the interface's size
    // (a hostile one of tens of thousands of paths) is not read four times more.
    if (served.text.length > MAX_DOCUMENT_CHARS)
      ctx.skip(`the document is ${served.text.length} characters long: its Accept variants are not read again`);
    const expected = versionOf(doc);
    for (const accept of DOCUMENT_ACCEPTS) {
      const ex = documentExchange(
        await ctx.call('GET', `${BASE_PATH}/openapi.json`, { credentials: 'none', headers: { Accept: accept } }),
      );
      if (ex.status !== 200) {
        ctx.note(`Accept: ${accept} answered ${ex.status}: not judged (a refusal of the media type)`);
        continue;
      }
      const got = versionOf(ex.json);
      ctx.expect.that(typeof got === 'string' && got === expected && /^3\.1\./.test(got), {
        expected: `GET ${BASE_PATH}/openapi.json with Accept: ${accept} answers the OpenAPI ${String(expected)} document the interface describes ("OpenAPI 3.1")`,
        observed: `openapi ${JSON.stringify(got)}${ex.json === undefined ? ' (no JSON)' : ''}`,
        exchange: ex,
      });
    }
  },
});
