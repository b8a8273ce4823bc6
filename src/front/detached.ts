/**
 * A copy of `text` that keeps nothing else alive. V8 keeps a substring (`path.relative`, a URL's
 * `pathname`) as a slice of the string it was cut from, so what a build keeps for each of its pages
 * kept every page's absolute paths and request URLs too (docs/decisions/216-build-memory.md).
 */
export const detached = (text: string): string => Buffer.from(text, 'utf8').toString('utf8');
