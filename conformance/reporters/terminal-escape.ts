/**
 * Every control character a terminal could act on: C0 (incl. ESC, CR, LF, BS, BEL), DEL, C1 (incl.
 * CSI U+009B) and the line/paragraph separators.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\u001b': '\\e' };

/**
 * Text from a deployment made safe for a terminal: each control character becomes a visible escape
 * (\e, \n, \x07, \u009b), so no escape sequence (screen clear, fake "passed" line, title or
 * clipboard write) reaches the user's terminal, and no line break can forge a line of the report.
 * @example escapeControl('\x1b[2J ok') // '\\e[2J ok'
 */
export function escapeControl(text: string): string {
  return text.replace(CONTROL, (c) => {
    const named = NAMED[c];
    if (named) return named;
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
