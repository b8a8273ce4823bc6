/**
 * What counts as a path of this site, and as a web URL, wherever a URL comes from outside (a
 * `/refresh?to=`, an imported image or favicon): never another host, never another scheme.
 */

/** '//host' or '/\host': a browser reads these as another host, not as a path (backslash counts as slash). */
export const NETWORK_PATH = /^[/\\]{2}/;

/** Control characters (browsers drop tabs and newlines inside URLs, which can join '/\t/' into '//') and backslashes. */
const UNSAFE = /[\u0000-\u001f\u007f\\]/;

/** True for a root-relative path of this site: '/…', not '//host' or '/\host', nothing a browser rewrites. */
export function isSitePath(value: string): boolean {
  return value.startsWith('/') && !NETWORK_PATH.test(value) && !UNSAFE.test(value);
}

/** True for an absolute http: or https: URL with a host (no javascript:, data:, file: or other schemes). */
export function isWebUrl(value: string): boolean {
  if (UNSAFE.test(value) || /\s/.test(value) || !URL.canParse(value)) return false;
  const url = new URL(value);
  return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
}
