// Characters XML 1.0 does not allow at all (not even escaped): C0 controls except tab, LF, CR.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching exactly these control characters is the point.
const INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** Text or attribute value, escaped for XML. */
export function xmlEscape(value: string): string {
  return value
    .replace(INVALID, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** `<name a="1">children</name>`, or self-closing without children; attributes escaped, undefined ones left out. */
export function element(name: string, attrs: Record<string, string | number | undefined>, children?: string): string {
  const a = Object.entries(attrs)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${xmlEscape(String(v))}"`)
    .join('');
  return children === undefined ? `<${name}${a}/>` : `<${name}${a}>${children}</${name}>`;
}
