import {
  CapabilitiesData,
  CapabilityCheckBody,
  CapabilityCheckData,
  ConnectorsData,
  ConnectorsQuery,
  ProvidersData,
  ProvidersQuery,
} from '../catalog.ts';
import { defineRoutes } from '../route-def.ts';
import { BASE_PATH } from '../versions.ts';

export const catalogRoutes = defineRoutes([
  {
    id: 'listProviders',
    method: 'GET',
    path: `${BASE_PATH}/providers`,
    purpose: 'list providers',
    tags: ['catalog'],
    auth: true,
    scope: 'catalog:read',
    query: ProvidersQuery,
    data: ProvidersData,
  },
  {
    id: 'listConnectors',
    method: 'GET',
    path: `${BASE_PATH}/connectors`,
    purpose: 'list connectors',
    tags: ['catalog'],
    auth: true,
    scope: 'catalog:read',
    query: ConnectorsQuery,
    data: ConnectorsData,
  },
  {
    id: 'listCapabilities',
    method: 'GET',
    path: `${BASE_PATH}/capabilities`,
    purpose: 'capability catalog',
    tags: ['catalog'],
    auth: true,
    scope: 'catalog:read',
    data: CapabilitiesData,
  },
  {
    id: 'checkCapability',
    method: 'POST',
    path: `${BASE_PATH}/capabilities`,
    purpose: 'check a capability of a connector',
    tags: ['catalog'],
    auth: true,
    scope: 'catalog:read',
    body: CapabilityCheckBody,
    data: CapabilityCheckData,
    errors: ['not_found'],
  },
]);
