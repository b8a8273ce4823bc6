/** A rule as written by a form: `'between:1,10'`, `['between', 1, 10]` or `{ name: 'matches', args: [/x/] }`. */
export type RuleArg = string | number | RegExp;
export type RuleInput = string | readonly [string, ...RuleArg[]] | { name: string; args?: readonly RuleArg[] };
/** A field's rules: one pipe-separated string (`'required|email'`) or a list of rules. */
export type RuleSet = string | readonly RuleInput[];

/** A rule after parsing: its name and its arguments (regex literals already turned into RegExp). */
export type ParsedRule = { name: string; args: RuleArg[] };

/** `'/^a|b$/i'` → RegExp; anything else unchanged. Regex literals are how `matches` takes patterns. */
function toArg(raw: string): RuleArg {
  const literal = /^\/(.*)\/([dgimsuvy]*)$/s.exec(raw);
  if (literal) return new RegExp(literal[1] ?? '', literal[2]);
  return raw;
}

/**
 * Splits `text` on `separator`, except inside `/regex/` literals, so
 * `'required|matches:/^(a|b)$/'` stays two rules and `'matches:/a,b/,c'` keeps its comma.
 */
function splitOutsideRegex(text: string, separator: string): string[] {
  const parts: string[] = [];
  let current = '';
  let inRegex = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i] ?? '';
    if (inRegex) {
      current += char;
      if (char === '\\') {
        current += text[i + 1] ?? '';
        i++;
      } else if (char === '/') {
        inRegex = false;
      }
      continue;
    }
    // A slash opens a regex only at the start of an argument.
    if (char === '/' && (current === '' || current.endsWith(':'))) {
      inRegex = true;
      current += char;
      continue;
    }
    if (char === separator) {
      parts.push(current);
      current = '';
      continue;
    }
    current += char;
  }
  parts.push(current);
  return parts;
}

function parseRuleString(text: string): ParsedRule {
  const colon = text.indexOf(':');
  if (colon === -1) return { name: text.trim(), args: [] };
  const name = text.slice(0, colon).trim();
  const args = splitOutsideRegex(text.slice(colon + 1), ',').map(toArg);
  return { name, args };
}

/** Turns any accepted rule notation into a list of `{ name, args }`. */
export function parseRules(rules: RuleSet | undefined): ParsedRule[] {
  if (rules === undefined) return [];
  if (typeof rules === 'string') {
    return splitOutsideRegex(rules, '|')
      .map((part) => part.trim())
      .filter((part) => part !== '')
      .map(parseRuleString);
  }
  return rules.map((rule): ParsedRule => {
    if (typeof rule === 'string') return parseRuleString(rule);
    if (Array.isArray(rule)) {
      const [name, ...args] = rule as readonly [string, ...RuleArg[]];
      return { name, args: args.map((arg) => (typeof arg === 'string' ? toArg(arg) : arg)) };
    }
    const named = rule as { name: string; args?: readonly RuleArg[] };
    return { name: named.name, args: [...(named.args ?? [])] };
  });
}
