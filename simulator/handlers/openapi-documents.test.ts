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

  it('the build prebuilds exactly what would be generated', async () => {
    const url = `data:text/javascript,${encodeURIComponent(prebuiltDocumentsModule())}`;
    const { PREBUILT_DOCUMENTS } = (await import(url)) as { PREBUILT_DOCUMENTS: Record<string, string> };
    const prebuilt = createOpenApiDocuments(undefined, PREBUILT_DOCUMENTS);
    const generated = createOpenApiDocuments(undefined, undefined);
    for (const v of ['2026-07-01', '2026-06-12'] as const) expect(prebuilt.json(v)).toBe(generated.json(v));
  });
});
