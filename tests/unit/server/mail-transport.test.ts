import { expect, test } from 'vitest';
import { newMessageId } from '../../../src/server/mail/outbox.ts';
import { createLogTransport } from '../../../src/server/mail/transport.ts';

test('without SMTP a mail is printed in the log with its address, subject and text', async () => {
  const lines: [object, string | undefined][] = [];
  const logger = { info: (obj: object, msg?: string) => void lines.push([obj, msg]), warn() {}, error() {} };
  await createLogTransport(logger).deliver({
    messageId: '<a@b.c>',
    to: 'ada@example.com',
    subject: 'Your order',
    text: 'Thank you',
    html: '<p>Thank you</p>',
  });
  expect(lines).toEqual([
    [{ to: 'ada@example.com', subject: 'Your order', messageId: '<a@b.c>', text: 'Thank you' }, 'mail (dev outbox)'],
  ]);
});

test("a Message-ID is unique and carries the sender's domain", () => {
  const first = newMessageId('Acme Mail <orders@acme.example>');
  expect(first).toMatch(/^<[0-9a-f-]{36}@acme\.example>$/);
  expect(newMessageId('Acme Mail <orders@acme.example>')).not.toBe(first);
  expect(newMessageId('no-reply@shop.example')).toMatch(/@shop\.example>$/);
  expect(newMessageId('not an address')).toMatch(/@storefront\.local>$/);
});
