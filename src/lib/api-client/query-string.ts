/** A module of its own: the islands' requester stays as small as the store front's script budget needs. */
/** `?key=value&…` of a call's query, a list as its key repeated (`option=Size:M&option=Size:L`); '' when empty. */
export function queryString(query: object | undefined): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    for (const one of Array.isArray(value) ? value : [value]) {
      if (one !== undefined && one !== '') params.append(key, String(one));
    }
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}
