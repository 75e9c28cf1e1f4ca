// HAZEL_SPRING_PAGES: lists whose shape the interface leaves open (audit log, delivery log) answered the
// way Spring Data serialises a Page<T>: `content` plus paging fields.
export function springPage(content: unknown[], size: number, total: number, number = 0): Record<string, unknown> {
  const totalPages = Math.max(1, Math.ceil(total / Math.max(1, size)));
  const sort = { empty: true, sorted: false, unsorted: true };
  return {
    content,
    pageable: { pageNumber: number, pageSize: size, offset: number * size, paged: true, unpaged: false, sort },
    totalElements: total,
    totalPages,
    last: number >= totalPages - 1,
    first: number === 0,
    size,
    number,
    numberOfElements: content.length,
    empty: content.length === 0,
    sort,
  };
}

/** The schema of such a page in the OpenAPI document. */
export function springPageSchema(item: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const int = { type: 'integer' };
  return {
    type: 'object',
    required: ['content', 'totalElements', 'size', 'number'],
    properties: {
      content: { type: 'array', items: { $ref: `#/components/schemas/${item}` } },
      pageable: { type: 'object' },
      totalElements: int,
      totalPages: int,
      last: { type: 'boolean' },
      first: { type: 'boolean' },
      size: int,
      number: int,
      numberOfElements: int,
      empty: { type: 'boolean' },
      sort: { type: 'object' },
      ...extra,
    },
  };
}
