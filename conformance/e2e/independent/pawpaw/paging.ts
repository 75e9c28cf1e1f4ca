// Micronaut Data's Page as Jackson writes it: content, pageable (number, size, offset, sort), totalSize,
// totalPages. Pages are numbered from 0 (`page`), sized by `size`; the interface's `limit` is its alias.
import { bad, type Ctx } from './http.ts';
import type { Rec } from './state.ts';

function int(ctx: Ctx, name: string): number | undefined {
  const raw = ctx.query.get(name);
  if (raw === null || raw === '') return undefined;
  if (!/^\d+$/.test(raw)) throw bad(`${name}: must be an integer of at least 0`);
  return Number(raw);
}

export function page(ctx: Ctx, rows: Rec[], maxSize: number, defaultSize = 20): Rec {
  const asked = int(ctx, 'size') ?? int(ctx, 'limit') ?? defaultSize;
  if (asked < 1) throw bad('size: must be at least 1');
  const size = Math.min(asked, maxSize);
  const number = int(ctx, 'page') ?? 0;
  const offset = number * size;
  const content = rows.slice(offset, offset + size);
  const totalPages = Math.ceil(rows.length / size);
  return {
    content,
    pageable: { number, size, offset, sort: { orderBy: [] }, sorted: false, unpaged: false },
    totalSize: rows.length,
    totalPages,
    empty: content.length === 0,
    size,
    offset,
    pageNumber: number,
    numberOfElements: content.length,
  };
}
