import { describe, expect, it } from 'vitest';
import { listedFiles } from './file-links.ts';

describe('description files named as values (openapi.yaml-matches-json)', () => {
  const base = 'http://127.0.0.1:4010';
  it('reads paths and same-origin URLs of .yaml, .yml and .json files anywhere in a value', () => {
    const data = {
      openapi: {
        files: [{ yaml: '/api/public/v1/openapi/2026-07-01.yaml', json: '/api/public/v1/openapi/2026-07-01.json' }],
      },
      documents: { yml: `${base}/api/public/v1/description.yml` },
    };
    expect(listedFiles(data, base).sort()).toEqual([
      '/api/public/v1/description.yml',
      '/api/public/v1/openapi/2026-07-01.json',
      '/api/public/v1/openapi/2026-07-01.yaml',
    ]);
  });
  it('never follows another origin, a protocol-relative path, prose or a query', () => {
    const data = {
      elsewhere: 'https://docs.example.com/openapi.yaml',
      relative: '//cdn.example.com/openapi.yaml',
      prose: 'download /api/public/v1/openapi.yaml here',
      query: '/api/public/v1/openapi?format=yaml',
    };
    expect(listedFiles(data, base)).toEqual([]);
  });
  it('stops at its bounds on a hostile value', () => {
    const many = Array.from({ length: 50_000 }, (_, i) => `/f${i}.yaml`);
    expect(listedFiles(many, base).length).toBeLessThanOrEqual(16);
  });
});
