import { describe, expect, test } from 'vitest';
import { KeptAnswer } from '../../../src/front/kept-answer.ts';

const BODY = '{"data":{"id":"1","name":"Café"}}';
const answer = () =>
  new KeptAnswer(new TextEncoder().encode(BODY), { status: 200, headers: [['content-type', 'application/json']] });

describe('KeptAnswer', () => {
  test('is a Response with the kept status, headers and body', async () => {
    const kept = answer();
    expect(kept).toBeInstanceOf(Response);
    expect(kept.ok).toBe(true);
    expect(kept.status).toBe(200);
    expect(kept.headers.get('content-type')).toBe('application/json');
    expect(await kept.json()).toEqual({ data: { id: '1', name: 'Café' } });
  });

  test('its body is read once, whichever way, as any answer’s', async () => {
    for (const read of [
      (r: Response) => r.text(),
      (r: Response) => r.json(),
      (r: Response) => r.bytes(),
      (r: Response) => r.arrayBuffer(),
      (r: Response) => r.blob(),
    ]) {
      const kept = answer();
      expect(kept.bodyUsed).toBe(false);
      await read(kept);
      expect(kept.bodyUsed).toBe(true);
      await expect(kept.text()).rejects.toThrow(TypeError);
      expect(() => kept.clone()).toThrow(TypeError);
    }
  });

  test('bytes, a blob, a stream and a clone give the same body; changing a copy leaves the kept bytes', async () => {
    const kept = answer();
    const copy = kept.clone();
    const bytes = await kept.bytes();
    bytes.fill(0);
    expect(await copy.clone().text()).toBe(BODY);
    expect(await new Response(copy.clone().body).text()).toBe(BODY);
    const blob = await copy.blob();
    expect(blob.type).toBe('application/json');
    expect(await blob.text()).toBe(BODY);
  });
});
