import type { HttpClient } from '../http.js';
import { call } from '../call.js';
import { domainsEndpoints, type Domain } from '../contract/domains.js';

export type { Domain };

export async function listDomains(http: HttpClient, query: { search?: string; order?: 'Asc' | 'Desc' } = {}) {
  return (await call(http, domainsEndpoints.list, { query })).items;
}

export async function deleteDomain(http: HttpClient, id: string): Promise<void> {
  await call(http, domainsEndpoints.delete, { params: { id } });
}

export async function revokeDomain(http: HttpClient, id: string): Promise<void> {
  await call(http, domainsEndpoints.revoke, { params: { id } });
}
