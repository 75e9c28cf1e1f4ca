// The first items of a list in a failure text, then how many more: a deployment can give thousands.

/**
 * The first `max` items joined by `separator`, then how many more there were.
 * @example listed(['a', 'b', 'c'], 2) // 'a; b; and 1 more'
 * @example listed(['a', 'b', 'c'], 2, ', ') // 'a, b and 1 more'
 */
export function listed(items: readonly string[], max = 6, separator: '; ' | ', ' = '; '): string {
  const more = items.length - max;
  const tail = more > 0 ? `${separator === ', ' ? ' ' : separator}and ${more} more` : '';
  return items.slice(0, max).join(separator) + tail;
}
