import { describe, expect, it } from 'vitest';
import { pointerDiff, yamlAsJson, yamlPairs } from './openapi-yaml.ts';
import type { OpenApiLike } from './support/openapi.ts';

const P = '/api/public/v1';
const route = (path: string, purpose = '') => ({ method: 'GET', path, purpose, auth: false });

describe('yamlPairs (openapi.yaml-matches-json): only the YAML files a deployment lists', () => {
  it('finds none where neither the self-description nor the document lists one', () => {
    expect(yamlPairs([route(`${P}/openapi.json`)], { paths: { [`${P}/openapi.json`]: { get: {} } } })).toEqual([]);
  });

  it('pairs openapi.yaml with openapi.json, and each further version both take by the same query parameter', () => {
    const version = { name: 'version', in: 'query', schema: { type: 'string', enum: ['2026-07-01', '2026-06-12'] } };
    const doc = {
      paths: {
        [`${P}/openapi.json`]: { get: { parameters: [version] } },
        [`${P}/openapi.yaml`]: { get: { parameters: [{ $ref: '#/components/parameters/Version' }] } },
      },
      components: { parameters: { Version: version } },
    } as unknown as OpenApiLike;
    expect(yamlPairs([], doc)).toEqual([
      { yaml: { path: `${P}/openapi.yaml` }, json: { path: `${P}/openapi.json` }, version: '2026-07-01' },
      {
        yaml: { path: `${P}/openapi.yaml`, query: { version: '2026-06-12' } },
        json: { path: `${P}/openapi.json`, query: { version: '2026-06-12' } },
        version: '2026-06-12',
      },
    ]);
  });

  it('fills a file template with the names its purpose lists, pairing each YAML with the JSON of its name', () => {
    const routes = [route(`${P}/openapi/{file}`, 'downloadable file per version (2026-07-01.json, 2026-07-01.yaml)')];
    expect(yamlPairs(routes, {})).toEqual([
      {
        yaml: { path: `${P}/openapi/2026-07-01.yaml` },
        json: { path: `${P}/openapi/2026-07-01.json` },
        version: '2026-07-01',
      },
    ]);
  });

  it("does not judge another version's YAML that has no JSON of its version listed", () => {
    const routes = [route(`${P}/openapi/{file}`, 'files: 2026-06-12.yaml')];
    expect(yamlPairs(routes, {})).toEqual([]);
    // The current version's YAML without a JSON file of its name: openapi.json is that version's JSON.
    expect(yamlPairs([route(`${P}/openapi/{file}`, 'files: 2026-07-01.yml')], {})).toEqual([
      { yaml: { path: `${P}/openapi/2026-07-01.yml` }, json: { path: `${P}/openapi.json` }, version: '2026-07-01' },
    ]);
  });
});

describe('yamlAsJson and pointerDiff', () => {
  it('reads YAML 1.2 as JSON would hold it: dates stay strings, keys strings', () => {
    expect(yamlAsJson('info:\n  version: 2026-07-01\nresponses:\n  200: {description: ok}\n')).toEqual({
      value: { info: { version: '2026-07-01' }, responses: { '200': { description: 'ok' } } },
    });
    // JSON is YAML 1.2: a deployment may serve the JSON text as its YAML file.
    expect(yamlAsJson('{"a": [1, "x"]}')).toEqual({ value: { a: [1, 'x'] } });
  });

  it('refuses text that is no YAML, and an alias bomb, with the reason', () => {
    expect(yamlAsJson('a: [1, 2\n')).toHaveProperty('problem');
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x]',
      ...Array.from({ length: 8 }, (_, i) => {
        const prev = i === 0 ? 'a' : `b${i - 1}`;
        return `b${i}: &b${i} [${Array(9).fill(`*${prev}`).join(', ')}]`;
      }),
    ].join('\n');
    expect(yamlAsJson(bomb)).toMatchObject({ guard: true });
  });

  it('reads a file that shares repeated parts through anchors, as PyYAML writes it (221 aliases)', () => {
    const text = [
      'components:',
      '  error: &error {type: object, required: [ok, error, meta]}',
      'paths:',
      ...Array.from({ length: 221 }, (_, i) => `  /p${i}: {get: {responses: {'400': *error}}}`),
    ].join('\n');
    const read = yamlAsJson(text);
    expect(read).toHaveProperty('value');
    expect((read as { value: { paths: Record<string, unknown> } }).value.paths['/p220']).toEqual({
      get: { responses: { '400': { type: 'object', required: ['ok', 'error', 'meta'] } } },
    });
  });

  it('names the first differing JSON pointers (RFC 6901 escapes), then counts the rest', () => {
    const json = { paths: { '/a/b': { get: { enum: ['sandbox', 'production'] } } }, n: 1 };
    const yaml = { paths: { '/a/b': { get: { enum: ['sandbox'] } } }, n: 1 };
    expect(pointerDiff(json, yaml)).toEqual([
      { path: '/paths/~1a~1b/get/enum/1', expected: '"production"', observed: '(absent)' },
    ]);
    expect(pointerDiff({ a: 1 }, { a: 1 })).toEqual([]);
    const many = pointerDiff({ a: 1, b: 2, c: 3 }, { a: 0, b: 0, c: 0 }, 2);
    expect(many.map((d) => d.path)).toEqual(['/a', '/b', '…']);
    expect(pointerDiff({ a: 1 }, 'text')).toEqual([{ path: '(root)', expected: '{"a":1}', observed: '"text"' }]);
  });
});
