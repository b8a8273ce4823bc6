/**
 * Whether an `If-None-Match` header names this ETag: `*`, or any entry of the list under the weak
 * comparison RFC 9110 §13.1.2 prescribes for conditional GETs (`W/"x"` matches `"x"`).
 */
export function etagMatches(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === opaque);
}
