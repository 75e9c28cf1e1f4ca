// Strong-parameters style validation: required fields with their types and the contract's limits.
// Unknown fields are ignored (permitted list), lengths count characters (code points), not bytes.
// Messages name the field and the rule, never the refused value.
import { ApiError } from './http.ts';

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];
export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

function invalid(detail: string): never {
  throw new ApiError('invalid_request', 'Request body is invalid', detail, 'check the request against openapi.json');
}

export function text(body: Record<string, unknown>, field: string, min: number, max: number): string {
  const v = body[field];
  if (v === undefined) invalid(`${field} is required`);
  if (typeof v !== 'string') invalid(`${field} must be a string`);
  const n = [...v].length;
  if (n < min || n > max) invalid(`${field} must be ${min} to ${max} characters long`);
  return v;
}

export function environment(body: Record<string, unknown>, field: string, fallback?: string): string {
  const v = body[field];
  if (v === undefined && fallback) return fallback;
  if (v === undefined) invalid(`${field} is required`);
  if (typeof v !== 'string' || !ENVIRONMENTS.includes(v)) invalid(`${field} must be one of ${ENVIRONMENTS.join(', ')}`);
  return v;
}

export function textList(
  body: Record<string, unknown>,
  field: string,
  items: [number, number],
  len: [number, number],
): string[] {
  const v = body[field];
  if (v === undefined) invalid(`${field} is required`);
  if (!Array.isArray(v)) invalid(`${field} must be an array of strings`);
  if (v.length < items[0] || v.length > items[1]) invalid(`${field} must have ${items[0]} to ${items[1]} items`);
  v.forEach((item, i) => {
    if (typeof item !== 'string') invalid(`${field}[${i}] must be a string`);
    const n = [...item].length;
    if (n < len[0] || n > len[1]) invalid(`${field}[${i}] must be ${len[0]} to ${len[1]} characters long`);
  });
  return v as string[];
}

/** A non-negative integer given as text (query parameter or header), or undefined when absent. */
export function counter(raw: string | null | undefined, name: string): number | undefined {
  if (raw === null || raw === undefined) return undefined;
  if (!/^\d{1,15}$/.test(raw.trim())) {
    throw new ApiError('invalid_request', `${name} is invalid`, `${name} must be an integer of at least 0`);
  }
  return Number(raw.trim());
}

/** page/per_page (Rails will_paginate style): both optional; per_page at most 100. */
export function paging(url: URL, perPageDefault: number): { page: number; perPage: number; asked: boolean } {
  const page = counter(url.searchParams.get('page'), 'page');
  const limit = counter(url.searchParams.get('limit'), 'limit');
  const perPage = counter(url.searchParams.get('per_page'), 'per_page') ?? limit;
  if (page === 0) throw new ApiError('invalid_request', 'page is invalid', 'page starts at 1');
  if (perPage === 0) throw new ApiError('invalid_request', 'per_page is invalid', 'per_page must be at least 1');
  return {
    page: page ?? 1,
    perPage: Math.min(perPage ?? perPageDefault, 100),
    asked: page !== undefined || perPage !== undefined,
  };
}

/** Slices a list for page/per_page and adds an RFC 8288 Link header (first, prev, next, last). */
export function paginate<T>(
  list: T[],
  url: URL,
  origin: string,
  headers: Record<string, string>,
  perPageDefault = Number.POSITIVE_INFINITY,
): { items: T[]; page: number; perPage: number | null; total: number } {
  const { page, perPage, asked } = paging(url, Math.min(perPageDefault, 100));
  if (!asked && !Number.isFinite(perPageDefault)) return { items: list, page: 1, perPage: null, total: list.length };
  const last = Math.max(1, Math.ceil(list.length / perPage));
  const link = (p: number, rel: string) => {
    const u = new URL(url.pathname + url.search, origin);
    u.searchParams.set('page', String(p));
    u.searchParams.set('per_page', String(perPage));
    u.searchParams.delete('limit');
    return `<${u.pathname}${u.search}>; rel="${rel}"`;
  };
  const links = [link(1, 'first'), link(last, 'last')];
  if (page > 1) links.push(link(Math.min(page - 1, last), 'prev'));
  if (page < last) links.push(link(page + 1, 'next'));
  headers.Link = links.join(', ');
  return { items: list.slice((page - 1) * perPage, page * perPage), page, perPage, total: list.length };
}
