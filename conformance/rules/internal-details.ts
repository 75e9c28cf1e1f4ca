import { findHostPort, HOST_PORT } from './host-port-sign.ts';

/**
 * Signs of a service's internals in what it sends out, as data: one entry per sign. `everywhere`
 * patterns are precise enough to judge any channel (success answers, stream messages, webhook
 * deliveries carry free-form partner data); the others are judged in error answers only, where no
 * partner data is quoted. Adding a sign is one entry.
 */
export interface InternalSign {
  what: string;
  re: RegExp;
  everywhere: boolean;
  /** What `re.exec(text)?.[0]` gives, found faster (where the pattern alone is slow on large texts). */
  find?: (text: string) => string | undefined;
  /** Literal text every match contains one of: a text holding none is not searched (the same verdict, sooner). */
  needs?: readonly string[];
}

export const INTERNAL_SIGNS: readonly InternalSign[] = [
  {
    what: 'a JavaScript stack frame',
    re: /\bat (?:async )?(?:[\w$.<>[\]]+ )?\(?(?:(?:file:\/\/)?[\w./\\@-]+\.[cm]?[jt]sx?|node:[\w/]+):\d+:\d+\)?/,
    everywhere: true,
    needs: ['at '],
  },
  { what: 'a multi-line stack trace', re: /\n\s+at [\w$.<]+[\s(]/, everywhere: true, needs: ['at '] },
  { what: 'a Python traceback', re: /Traceback \(most recent call last\)/, everywhere: true },
  {
    what: 'a Java/.NET stack frame',
    re: /\bat [\w$.]+\([\w$]+\.(?:java|cs|kt|scala):\d+\)/,
    everywhere: true,
    needs: ['at '],
  },
  {
    what: 'a Go panic',
    re: /goroutine \d+ \[|panic: runtime error/,
    everywhere: true,
    needs: ['goroutine ', 'panic: runtime error'],
  },
  {
    what: 'a qualified exception class',
    re: /\b(?:[a-z][\w]*\.){2,}[A-Z]\w*(?:Exception|Error)\b/,
    everywhere: true,
    needs: ['Exception', 'Error'],
  },
  {
    what: 'an exception class name',
    re: /\b(?:TypeError|ReferenceError|SyntaxError|RangeError|NullPointerException|IllegalStateException|IllegalArgumentException|KeyError|AttributeError|ValueError|Exception in thread|[A-Z]\w+Exception)\b/,
    everywhere: false,
  },
  {
    what: 'an SQL state',
    re: /\bSQLSTATE\b|\bSQL state\b|\bORA-\d{5}\b|\bER_[A-Z_]{4,}\b|\bSQLITE_[A-Z]+\b/,
    everywhere: true,
    needs: ['SQL', 'ORA-', 'ER_'],
  },
  {
    what: 'an SQL error',
    re: /duplicate key value violates|violates (?:foreign key|unique|not-null) constraint|syntax error at or near|relation "[^"]+" does not exist|column "[^"]+" does not exist|deadlock detected|You have an error in your SQL syntax/i,
    everywhere: true,
  },
  {
    what: 'an SQL statement',
    re: /\b(?:SELECT\s+[\w*,\s."]+\s+FROM|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM)\s+["\w.]+/i,
    everywhere: false,
  },
  {
    what: "a data store's shard or row",
    re: /\b(?:db|database|table)\s+shard\b|\bshard[\s:=#-]+[\w.-]*\d|\brow (?:exists|not found|already exists|is locked)\b/i,
    everywhere: false,
  },
  {
    what: 'a connection-pool name',
    re: /\bHikariPool-\d+\b|\bHikariCP\b|\bpgbouncer\b|\bc3p0\b|\bdeadpool\b|\bpool-\d+-thread-\d+\b|\bconnection pool (?:exhausted|timeout|timed out)/i,
    everywhere: true,
  },
  {
    what: 'a data-store address with credentials or scheme',
    re: /\b(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?|redis|rediss|amqps?|kafka|jdbc:\w+):\/\/[^\s"']+/i,
    everywhere: true,
    needs: ['://'],
  },
  {
    what: 'the host:port of an internal service',
    re: HOST_PORT,
    everywhere: true,
    find: findHostPort,
  },
  {
    what: 'a source file path',
    re: /(?:\/[\w.@-]+)+\/[\w.@-]+\.(?:ts|js|mjs|cjs|tsx|jsx|py|java|go|rb|php|cs|kt)\b/,
    everywhere: false,
  },
  { what: 'a node_modules path', re: /node_modules[\\/]/, everywhere: true },
  { what: 'a Windows file path', re: /\b[A-Za-z]:\\[\w\\.-]+/, everywhere: false },
];
