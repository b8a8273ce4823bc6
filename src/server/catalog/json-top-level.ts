/**
 * Splits a JSON object read as a stream of bytes into its top-level members, and one member's array
 * into its elements, so a catalog of 100,000 products is never held whole in memory
 * (docs/decisions/214-scale-and-contention.md). It only finds where each value begins and ends —
 * strings, escapes and nesting — and hands each piece to JSON.parse, which judges its syntax.
 */

/** A top-level member (`element: false`) or one element of the streamed member's array. */
export type JsonPiece = { key: string; json: string; element: boolean };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/** Malformed JSON, with the byte offset where the splitter noticed. */
export class JsonStreamError extends Error {}

type Mode =
  | 'start' // before the object's '{'
  | 'key' // expecting a member's key (or the object's '}')
  | 'colon' // after a key
  | 'value' // expecting a member's value
  | 'in-value' // inside a member's value
  | 'after-value' // after a member's value: ',' or '}'
  | 'element' // expecting an element of the streamed array (or its ']')
  | 'in-element'
  | 'after-element' // after an element: ',' or ']'
  | 'end'; // after the object's '}'

/**
 * Yields the members of the JSON object in `chunks` in order: each member as its JSON text, except
 * `streamedKey` when its value is an array, which is yielded element by element.
 */
export async function* jsonTopLevel(
  chunks: AsyncIterable<Buffer | string>,
  streamedKey: string,
): AsyncGenerator<JsonPiece> {
  let mode: Mode = 'start';
  let inString = false;
  let escaped = false;
  let depth = 0; // nesting inside the current value
  let captured: Buffer[] = [];
  let key = '';
  let offset = 0;
  let afterComma = false;
  const fail = (what: string, at: number): never => {
    throw new JsonStreamError(`Invalid JSON at byte ${offset + at}: ${what}`);
  };

  for await (const chunk of chunks) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    // Where the value being captured began in this chunk: 0 when it began in an earlier one.
    let from = captured.length > 0 ? 0 : -1;
    const pieces: JsonPiece[] = [];
    const finish = (end: number, element: boolean) => {
      captured.push(bytes.subarray(from, end));
      const json = Buffer.concat(captured).toString('utf8').trimEnd();
      captured = [];
      from = -1;
      if (mode === 'key') key = JSON.parse(json) as string;
      else pieces.push({ key, json, element });
    };
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i]!;
      if (inString) {
        if (escaped) escaped = false;
        else if (b === BACKSLASH) escaped = true;
        else if (b === QUOTE) {
          inString = false;
          if (mode === 'key') {
            finish(i + 1, false);
            mode = 'colon';
          }
        }
        continue;
      }
      if (mode === 'in-value' || mode === 'in-element') {
        if (b === QUOTE) inString = true;
        else if (b === OPEN_BRACE || b === OPEN_BRACKET) depth++;
        else if (depth > 0 && (b === CLOSE_BRACE || b === CLOSE_BRACKET)) depth--;
        else if (depth === 0 && (b === COMMA || b === CLOSE_BRACE || b === CLOSE_BRACKET)) {
          const element: boolean = (mode as Mode) === 'in-element';
          finish(i, element);
          mode = element ? 'after-element' : 'after-value';
          i--; // the separator is read again in its own mode
        }
        continue;
      }
      if (isSpace(b)) continue;
      switch (mode) {
        case 'start':
          if (b !== OPEN_BRACE) fail('a catalog is one JSON object', i);
          mode = 'key';
          break;
        case 'key':
          if (b === CLOSE_BRACE && !afterComma) mode = 'end';
          else if (b === QUOTE) {
            from = i;
            inString = true;
          } else fail('expected a member name', i);
          afterComma = false;
          break;
        case 'colon':
          if (b !== COLON) fail('expected ":"', i);
          mode = 'value';
          break;
        case 'value':
          if (key === streamedKey && b === OPEN_BRACKET) mode = 'element';
          else {
            mode = 'in-value';
            from = i;
            i--;
          }
          break;
        case 'after-value':
          if (b === COMMA) {
            mode = 'key';
            afterComma = true;
          } else if (b === CLOSE_BRACE) mode = 'end';
          else fail('expected "," or "}"', i);
          break;
        case 'element':
          if (b === CLOSE_BRACKET && !afterComma) mode = 'after-value';
          else {
            mode = 'in-element';
            from = i;
            i--;
          }
          afterComma = false;
          break;
        case 'after-element':
          if (b === COMMA) {
            mode = 'element';
            afterComma = true;
          } else if (b === CLOSE_BRACKET) mode = 'after-value';
          else fail('expected "," or "]"', i);
          break;
        case 'end':
          fail('text after the end of the object', i);
      }
    }
    // A value still open at the chunk's end (at least its first byte) is kept until it closes in a later one.
    if (from >= 0) captured.push(bytes.subarray(from));
    offset += bytes.length;
    yield* pieces;
  }
  if (mode !== 'end') throw new JsonStreamError('Invalid JSON: the file ends before the object does');
}
