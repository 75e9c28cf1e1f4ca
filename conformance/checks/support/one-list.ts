/**
 * The list of records in an answer's `data` whose field names the interface does not show (the audit
 * log: "Response fields ... not shown"; the delivery log: "payloads are not shown"): the field of the
 * simulator's name, else the one list in `data`, else the one list of objects nested in an object of
 * `data` (`data.page.items`, `data.result.entries`), at most three levels down. Undefined when there is
 * none or more than one candidate at the shallowest level holding any: a choice the kit cannot make.
 * @example theOneList({ page: { items: [{ id: 'd1' }], total: 1 } }, 'deliveries') // [{ id: 'd1' }]
 */
export function theOneList(data: unknown, preferred: string): unknown[] | undefined {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return undefined;
  const record = data as Record<string, unknown>;
  if (Array.isArray(record[preferred])) return record[preferred];
  const lists = Object.values(record).filter(Array.isArray);
  if (lists.length) return lists.length === 1 ? lists[0] : undefined;
  let level: unknown[] = Object.values(record);
  for (let depth = 2; depth <= 3; depth++) {
    level = level
      .filter((v) => v && typeof v === 'object' && !Array.isArray(v))
      .flatMap((v) => Object.values(v as object));
    const nested = level.filter(
      (v): v is unknown[] => Array.isArray(v) && v.some((e) => e && typeof e === 'object' && !Array.isArray(e)),
    );
    if (nested.length) return nested.length === 1 ? nested[0] : undefined;
  }
  return undefined;
}

/**
 * The id of the receiver a webhook registration created ("Response fields: not shown"): `data.id`, else
 * the `id` of the one object in `data` (up to two levels down) that has one, e.g. `data.webhook.id`; of
 * several, the one whose object also holds the registered url; else a field of `data` named as an id
 * (`subscriptionId`, `webhook_id`): the one naming a receiver, subscription, endpoint or hook, or the only one.
 * @example receiverIdOf({ webhook: { id: 'wh_1' }, receiver: { url } }, url) // 'wh_1'
 * @example receiverIdOf({ subscriptionId: 'WHS-1', callbackUrl: url }, url) // 'WHS-1'
 */
export function receiverIdOf(data: unknown, url: string): string | undefined {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return undefined;
  const record = data as Record<string, unknown>;
  const own = idText(record.id) ?? resourceNameId(record.name);
  if (own) return own;
  const objects = (values: unknown[]) =>
    values.filter((v): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v));
  const first = objects(Object.values(record));
  const candidates = [...first, ...objects(first.flatMap((o) => Object.values(o)))].filter(
    (o) => idText(o.id) !== undefined,
  );
  const chosen = candidates.length === 1 ? candidates[0] : candidates.find((o) => Object.values(o).includes(url));
  if (chosen) return idText(chosen.id);
  const idFields = Object.entries(record).flatMap(([k, v]): [string, string][] => {
    const text = /(?:Id|_id|ID)$/.test(k) ? idText(v) : undefined;
    return text ? [[k, text]] : [];
  });
  const named = idFields.filter(([k]) => /^(?:webhook|receiver|subscription|endpoint|hook|listener)/i.test(k));
  return (named.length === 1 ? named[0] : idFields.length === 1 ? idFields[0] : undefined)?.[1];
}

/**
 * The id a resource name carries (Google's AIP-122: `webhooks/whk_1`, `projects/p/webhooks/whk_1`): its last
 * segment, where the record has a `name` of that form instead of an `id`; undefined for any other text.
 * @example resourceNameId('webhooks/whk_1') // 'whk_1'; resourceNameId('Kitchen receiver') // undefined
 */
export function resourceNameId(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  return /^[A-Za-z][\w-]*\/(?:[^/\s]+\/[A-Za-z][\w-]*\/)*([^/\s]+)$/.exec(value)?.[1];
}

/**
 * An id as the text a path carries: a non-empty string, or a whole number (a receiver's or delivery's id is
 * the deployment's choice, "Response fields: not shown": an autoincrement 1 is one, sent as `1`).
 * @example idText(1) // '1'; idText('wh_1') // 'wh_1'; idText(1.5) // undefined
 */
export function idText(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value;
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? String(value) : undefined;
}
