import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../contract/openapi.ts';
import { CURRENT_VERSION } from '../contract/versions.ts';
import { prebuiltDocumentsModule } from '../package/prebuilt.ts';
import { createOpenApiDocuments } from './openapi-documents.ts';

describe('OpenAPI documents', () => {
  it('generates each version from the contract when nothing was prebuilt', () => {
    const docs = createOpenApiDocuments(undefined, undefined);
    expect(docs.object()).toEqual(buildOpenApiDocument());
    expect(docs.object('2026-06-12').info.version).toBe('2026-06-12');
    expect(docs.object()).toBe(docs.object()); // built once
  });

  it('serves the prebuilt text when there is one, and only for relative servers', () => {
    const marker = { ...buildOpenApiDocument(), info: { title: 'prebuilt', version: CURRENT_VERSION } };
    const prebuilt = { [CURRENT_VERSION]: JSON.stringify(marker) };
    expect(createOpenApiDocuments(undefined, prebuilt).object().info.title).toBe('prebuilt');
    expect(createOpenApiDocuments(['http://127.0.0.1:4010'], prebuilt).object().info.title).not.toBe('prebuilt');
  });

  it('gives the router every path, parameter, header and request body of the published document', () => {
    // Operations without their responses (the router never reads them); everything else as published.
    const withoutResponses = (doc: ReturnType<typeof buildOpenApiDocument>) =>
      Object.fromEntries(
        Object.entries(doc.paths ?? {}).map(([path, item]) => [
          path,
          Object.fromEntries(
            Object.entries(item as Record<string, { responses?: unknown }>).map(([method, op]) => {
              const { responses: _, ...rest } = op;
              return [method, rest];
            }),
          ),
        ]),
      );
    for (const v of ['2026-07-01', '2026-06-12'] as const) {
      const full = buildOpenApiDocument({ version: v });
      const routing = createOpenApiDocuments(undefined, undefined).routing(v);
      expect(Object.keys(routing.paths ?? {}).length).toBeGreaterThan(5);
      expect(withoutResponses(routing)).toEqual(withoutResponses(full));
      // Schemas the requests refer to by name are the published ones.
      const schemas = (routing.components?.schemas ?? {}) as Record<string, unknown>;
      for (const [name, schema] of Object.entries(schemas)) expect(schema).toEqual(full.components?.schemas?.[name]);
    }
  });

  it('routes from the whole document when one is at hand (prebuilt or built already), not a second one', () => {
    const marker = { ...buildOpenApiDocument(), info: { title: 'prebuilt', version: CURRENT_VERSION } };
    expect(createOpenApiDocuments(undefined, { [CURRENT_VERSION]: JSON.stringify(marker) }).routing().info.title).toBe(
      'prebuilt',
    );
    const docs = createOpenApiDocuments(undefined, undefined);
    expect(docs.routing()).not.toBe(docs.object());
    expect(docs.routing()).toBe(docs.object()); // once built, the published document serves the router too
  });

  it('the build prebuilds exactly what would be generated (the current version; an earlier one on demand)', async () => {
    const url = `data:text/javascript,${encodeURIComponent(prebuiltDocumentsModule())}`;
    const { PREBUILT_DOCUMENTS } = (await import(url)) as { PREBUILT_DOCUMENTS: Record<string, string> };
    const prebuilt = createOpenApiDocuments(undefined, PREBUILT_DOCUMENTS);
    const generated = createOpenApiDocuments(undefined, undefined);
    expect(Object.keys(PREBUILT_DOCUMENTS)).toEqual(['2026-07-01']);
    for (const v of ['2026-07-01', '2026-06-12'] as const) expect(prebuilt.json(v)).toBe(generated.json(v));
  });
});
