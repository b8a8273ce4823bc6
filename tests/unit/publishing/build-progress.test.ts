import { describe, expect, test } from 'vitest';
import { progressSentence, serverEvents, statusWord } from '../../../src/lib/build-progress.ts';

/** A body that arrives in the given pieces, as a network would cut it. */
function body(...pieces: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
}

describe('progressSentence', () => {
  test('says the pages done, the seconds elapsed and about how many are left', () => {
    expect(progressSentence({ done: 50, total: 412, elapsed_ms: 3012, eta_ms: 20_400 })).toBe(
      'Built 50/412 pages, 3 s elapsed, about 20 s left',
    );
  });

  test('makes no estimate before the first page', () => {
    expect(progressSentence({ done: 0, total: 412, elapsed_ms: 120, eta_ms: null })).toBe(
      'Built 0/412 pages, 0 s elapsed',
    );
  });
});

describe('serverEvents', () => {
  test('reads events cut anywhere by the network, with CRLF line ends and comments', async () => {
    const events = [];
    for await (const event of serverEvents(
      body(
        'event: prog',
        'ress\ndata: {"done":1}\n',
        '\n: keep-alive\n\nevent: done\r\ndata: {"id"',
        ':"b1"}\r',
        '\n\r\n',
      ),
    ))
      events.push(event);
    expect(events).toEqual([
      { event: 'progress', data: '{"done":1}' },
      { event: 'done', data: '{"id":"b1"}' },
    ]);
  });
});

describe('statusWord', () => {
  test('a rendered build whose folder was pruned reads "Removed"; kept ones, live, building and failed read as they are', () => {
    expect(statusWord({ status: 'ready', kept: false })).toBe('Removed');
    expect(statusWord({ status: 'rolled_back', kept: false })).toBe('Removed');
    expect(statusWord({ status: 'ready', kept: true })).toBe('Ready');
    expect(statusWord({ status: 'rolled_back', kept: true })).toBe('Rolled back');
    expect(statusWord({ status: 'live', kept: true })).toBe('Live');
    expect(statusWord({ status: 'failed', kept: false })).toBe('Failed');
    expect(statusWord({ status: 'building', kept: false })).toBe('Building');
  });
});
