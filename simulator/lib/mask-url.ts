/**
 * A URL as it may be printed: the password of its user information becomes ***. Messages that quote a
 * URL someone gave (a store, a public origin) never repeat a password it carried.
 * @example maskUrl('redis://app:hunter2@127.0.0.1:6379/0') // 'redis://app:***@127.0.0.1:6379/0'
 */
export function maskUrl(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
}
