import { describe, expect, test } from 'vitest';
import { jsonTopLevel, JsonStreamError, type JsonPiece } from '../../../src/server/catalog/json-top-level.ts';

/** Feeds `text` in chunks of `size` bytes, so values, strings and escapes straddle chunk ends. */
async function* chunksOf(text: string, size: number): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function pieces(text: string, size: number): Promise<JsonPiece[]> {
  const out: JsonPiece[] = [];
  for await (const piece of jsonTopLevel(chunksOf(text, size), 'products')) out.push(piece);
  return out;
}

/** The object rebuilt from its pieces, as a reader of the stream would. */
function rebuilt(list: JsonPiece[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of list) {
    const value: unknown = JSON.parse(p.json);
    if (p.element) ((out[p.key] ??= []) as unknown[]).push(value);
    else out[p.key] = value;
  }
  return out;
}

const tricky = {
  store: { slug: 'a', title: 'Brace } bracket ] quote " backslash \\ comma , colon :', tags: [1, [2, { x: [] }]] },
  products: [
    {
      id: 'p-1',
      name: 'Tée ☕ 😀',
      description_html: '<p>"quoted" \\" and \\\\</p>',
      variants: [{ sku: 'S', price: '1.00' }],
    },
    { id: 'p-2', name: '', empty: {}, list: [] },
    'a string element, with a comma',
    42,
    null,
  ],
  bundles: [],
  count: -1.5e3,
  flag: false,
};

describe('the top-level members of a JSON object read as a stream', () => {
  for (const size of [1, 2, 3, 7, 64, 100_000]) {
    test(`give back the same object, one product at a time, in chunks of ${size} bytes`, async () => {
      for (const text of [JSON.stringify(tricky), JSON.stringify(tricky, null, 2)]) {
        const list = await pieces(text, size);
        expect(rebuilt(list)).toEqual({ ...tricky, bundles: [] });
        expect(list.filter((p) => p.element)).toHaveLength(tricky.products.length);
        expect(list.filter((p) => p.element).every((p) => p.key === 'products')).toBe(true);
      }
    });
  }

  test('an empty products array yields no element, an empty object nothing', async () => {
    expect(await pieces('{"products": [ ], "store": {}}', 4)).toEqual([{ key: 'store', json: '{}', element: false }]);
    expect(await pieces(' { } ', 1)).toEqual([]);
  });

  test('products that are not an array come whole, for the schema to refuse', async () => {
    expect(await pieces('{"products": {"id": 1}}', 3)).toEqual([
      { key: 'products', json: '{"id": 1}', element: false },
    ]);
  });

  const broken: [string, RegExp][] = [
    ['[1, 2]', /one JSON object/],
    ['{"store" {}}', /expected ":"/],
    ['{"products": [1}', /expected "," or "]"/],
    ['{"a": 1]', /expected "," or "}"/],
    ['{"products": [1, 2]', /ends before the object does/],
    ['{"a": 1}{', /text after the end/],
    ['{"a": 1,}', /expected a member name/],
    ['{store: 1}', /expected a member name/],
  ];
  for (const [text, message] of broken) {
    test(`refuses ${text} with where and what`, async () => {
      await expect(pieces(text, 2)).rejects.toThrow(JsonStreamError);
      await expect(pieces(text, 2)).rejects.toThrow(message);
    });
  }

  test('a value the splitter passes on whole is still judged by JSON.parse', async () => {
    for (const text of [
      '{"store": {"a": tru}}',
      '{"store": {} "products": []}',
      '{"products": [1 2]}',
      '{"a": "x" "y"}',
    ]) {
      const [piece] = await pieces(text, 5);
      expect((): unknown => JSON.parse(piece!.json)).toThrow(SyntaxError);
    }
  });
});
