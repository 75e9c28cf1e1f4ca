// Round 9: the kit reads a hostile OpenAPI document: a catastrophic-backtracking pattern where the
// Idempotency-Key's pattern stands, cyclic and self-referencing $refs, 30,000 paths, a 1.9 MB string.
// The kit judges the document (a failed check) in bounded time; it never hangs or faults.
import { describe, expect, it } from 'vitest';
import { runKitInChild, upstreamJson } from './attacks-round9-hostile.ts';
import { env, finishedBounded, hostile, kitOptions, useHostile } from './attacks-round9-kit-setup.ts';

useHostile();
const DOC = '/api/public/v1/openapi.json';
const T = 150_000;
// biome-ignore lint/suspicious/noExplicitAny: a doctored copy of an arbitrary document, written field by field
type Json = Record<string, any>;

/** Serves `doctor(copy of the simulator's document)` as openapi.json. */
async function serveDoc(doctor: (doc: Json) => Json | string) {
  const doc = structuredClone(await upstreamJson(env.sim?.baseUrl ?? '', DOC)) as Json;
  const out = doctor(doc);
  const text = typeof out === 'string' ? out : JSON.stringify(out);
  hostile().attack = (req, res) => {
    if ((req.url ?? '').replace(/\?.*$/s, '') !== DOC) return false;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(text);
    return true;
  };
}

/** Every object of a JSON value (to rewrite keywords wherever they stand). */
function* objects(v: unknown): Generator<Json> {
  if (!v || typeof v !== 'object') return;
  yield v as Json;
  for (const c of Object.values(v)) yield* objects(c);
}

const pathKey = (doc: Json, end: string) => Object.keys(doc.paths).find((k) => k.endsWith(end)) ?? end;

describe('round 9: the kit against a hostile OpenAPI document', () => {
  // Held after the fix: every Ajv of the kit compiles patterns through boundedRegExp (safe-regex.ts): nested quantifiers are not run, the value not judged.
  it(
    'a catastrophic-backtracking pattern for the Idempotency-Key is judged within time, not run for ever',
    async () => {
      await serveDoc((doc) => {
        for (const o of objects(doc)) if (typeof o.pattern === 'string') o.pattern = '^([A-Za-z0-9._:-]+)+Z$';
        return doc;
      });
      const grep = '^openapi\\.limits-not-(narrower|wider)$';
      const r = finishedBounded(await runKitInChild(kitOptions({ grep }), 60_000), 45_000);
      // The pattern is not run (nested quantifiers): those values are not judged, never a MUST failure for it.
      expect(r?.exitCode).toBe(0);
      const results = (r?.results ?? []) as { name: string; status: string }[];
      expect(results.map((c) => c.status)).toEqual(['pass', 'pass']);
    },
    T,
  );

  // Held after the fix: in-place $ref cycles are found before validating (schema-cycles.ts) and noted as not judged; a fault's text is one line, no stack.
  it(
    'cyclic and self-referencing $refs (schemas and path items) are judged, not a hang or a fault',
    async () => {
      await serveDoc((doc) => {
        doc.components.schemas.Loop1 = { $ref: '#/components/schemas/Loop2' };
        doc.components.schemas.Loop2 = { $ref: '#/components/schemas/Loop1' };
        doc.components.schemas.Node = {
          type: 'object',
          required: ['child'],
          properties: { child: { $ref: '#/components/schemas/Node' } },
          allOf: [{ $ref: '#/components/schemas/Node' }],
        };
        const conn = doc.paths[pathKey(doc, '/connections')];
        conn.post.requestBody.content['application/json'].schema = { $ref: '#/components/schemas/Loop1' };
        const caps = doc.paths[pathKey(doc, '/capabilities')];
        caps.post.requestBody.content['application/json'].schema = { $ref: '#/components/schemas/Node' };
        doc.paths['/api/public/v1/loop'] = { $ref: '#/paths/~1api~1public~1v1~1loop' };
        doc.components.pathItems = { A: { $ref: '#/components/pathItems/B' }, B: { $ref: '#/components/pathItems/A' } };
        doc.paths['/api/public/v1/loop2'] = { $ref: '#/components/pathItems/A' };
        return doc;
      });
      const grep = '^(openapi\\.|discovery\\.(openapi-valid|routes-match-openapi|interface-routes-listed))';
      const r = finishedBounded(await runKitInChild(kitOptions({ grep }), 90_000), 60_000);
      expect(r?.exitCode).toBe(1);
    },
    T,
  );

  // Held in part after the fix: +474 MB RSS for a 1.9 MB document before (limits-not-narrower +331,
  // discovery.openapi-valid +318, required-not-narrower +226); the judges now read only the interface's
  // paths, but discovery.openapi-valid's validator (@seriousme/openapi-schema-validator's checkRefs) still
  // grows ~300 MB on it: bounded by --max-body-bytes, not by the 300 MB asked of the other attacks (README).
  it(
    'a document of 30,000 extra paths (under the body cap) is judged in bounded time and memory',
    async () => {
      await serveDoc((doc) => {
        for (let i = 0; i < 30_000; i++) doc.paths[`/x${i}`] = { get: { responses: { 200: { description: 'x' } } } };
        return doc;
      });
      const grep = '^(openapi\\.|discovery\\.(openapi-valid|routes-match-openapi|interface-routes-listed))';
      finishedBounded(await runKitInChild(kitOptions({ grep }), 90_000), 60_000, 450);
    },
    T,
  );

  it(
    'a 1.9 MB string in the document (and one in a pattern) is judged, not a fault',
    async () => {
      await serveDoc((doc) => {
        doc.info.description = 'd'.repeat(1_900_000);
        return doc;
      });
      const grep = '^(openapi\\.|discovery\\.(openapi-valid|routes-match-openapi))';
      finishedBounded(await runKitInChild(kitOptions({ grep }), 90_000), 60_000);
    },
    T,
  );

  // Held after the fix (session 36): +257-300 MB RSS before (run AP failed it at 300), now about 80 MB: the
  // schemas' cache key copied the array entry by entry and the secret scan listed its 500,000 entries.
  it(
    'a document whose paths is a 1,000,000-entry array, and openapi a number, is refused cleanly',
    async () => {
      await serveDoc(
        (doc) =>
          `{"openapi":3.1,"paths":[${Array.from({ length: 500_000 }, () => '0').join(',')}],"x":${JSON.stringify(doc.info)}}`,
      );
      const grep = '^(openapi\\.|discovery\\.openapi-valid)';
      finishedBounded(await runKitInChild(kitOptions({ grep }), 90_000), 60_000, 150);
    },
    T,
  );

  for (const [what, pattern] of [
    ['an invalid regex', '^([A-Za-z'],
    ['a regex too large to compile', '^(?:a{1,65535}){1,65535}$'],
  ]) {
    it(
      `${what} as the Idempotency-Key pattern is a finding, not a fault of the check`,
      async () => {
        await serveDoc((doc) => {
          for (const o of objects(doc)) if (typeof o.pattern === 'string') o.pattern = pattern;
          return doc;
        });
        const grep =
          '^(openapi\\.limits-not-(narrower|wider)|openapi\\.required-not-narrower|discovery\\.openapi-valid)$';
        finishedBounded(await runKitInChild(kitOptions({ grep }), 60_000), 45_000);
      },
      T,
    );
  }
});
