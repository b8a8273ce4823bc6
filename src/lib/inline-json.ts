/** JSON a page inlines for its scripts in a `<script type="application/json">` element. */

/** JSON safe inside a <script> element (no '</script>' break-out). */
export function inlineJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
