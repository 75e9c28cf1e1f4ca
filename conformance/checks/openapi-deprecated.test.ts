import { describe, expect, it } from 'vitest';
import { contractDeprecated } from './openapi-deprecated.ts';

const P = '/api/public/v1';
const tenant = (deprecated?: true) => ({
  name: 'X-Service-Tenant',
  in: 'header',
  schema: { type: 'string' },
  deprecated,
});
const doc = (edit: (d: any) => void = () => {}) => {
  const d: any = {
    openapi: '3.1.0',
    paths: {
      [`${P}/connections`]: {
        get: { parameters: [tenant()], responses: {} },
        post: {
          parameters: [tenant(), { name: 'Idempotency-Key', in: 'header', schema: { type: 'string' } }],
          requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Create' } } } },
          responses: {},
        },
      },
      [`${P}/connectors`]: {
        get: { parameters: [tenant(), { name: 'legacyFilter', in: 'query', deprecated: true }], responses: {} },
      },
    },
    components: {
      schemas: {
        Create: {
          allOf: [
            { properties: { connectorId: { type: 'string' } } },
            { properties: { scopeLabel: { type: 'string' } } },
          ],
          properties: { restaurantId: { type: 'string', deprecated: true } },
        },
      },
    },
  };
  edit(d);
  return d;
};

describe('contractDeprecated', () => {
  it('finds nothing where only the deployment’s own additions are deprecated', () => {
    expect(contractDeprecated(doc())).toEqual([]);
  });

  it('finds a required header, an operation and a listed body field (through allOf and $ref) marked deprecated', () => {
    const found = contractDeprecated(
      doc((d) => {
        d.paths[`${P}/connections`].get.parameters = [tenant(true)];
        d.paths[`${P}/connectors`].get.deprecated = true;
        d.components.schemas.Create.allOf[1].properties.scopeLabel.deprecated = true;
      }),
    );
    expect(found).toEqual([
      `GET ${P}/connectors (the operation)`,
      `GET ${P}/connections: header x-service-tenant`,
      `POST ${P}/connections: body field scopeLabel`,
    ]);
  });
});
