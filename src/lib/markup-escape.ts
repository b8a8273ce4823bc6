/** Text made safe inside XML or HTML, in element content and in quoted attribute values alike. */
export function escapeMarkup(value: string): string {
  return value.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!,
  );
}
