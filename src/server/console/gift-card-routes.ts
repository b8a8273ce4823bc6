/**
 * The console's gift cards (docs/decisions/199-console-catalog-and-gift-cards.md): issue one with a
 * random code (80 bits from node:crypto, answered in full once, masked ever after), its balance and
 * ledger (issue, redemptions by orders, adjustments, disabling), relative adjustments that never take
 * the balance below zero, and disabling, after which checkout refuses the card.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { ConsoleGiftCard, ConsoleGiftCardDetail, GiftCardLedgerEntry } from '../../lib/contract/answers.ts';
import {
  consoleGiftCardsQuery,
  disableGiftCardPayload,
  giftCardAdjustmentPayload,
  issueGiftCardPayload,
} from '../../lib/contract/payloads.ts';
import { centsToDecimal, formatCurrency } from '../../lib/money.ts';
import type { Database, GiftCardEventsTable, GiftCardsTable } from '../db/schema.ts';
import type { AppDeps } from '../http/context.ts';
import { conflict, invalidField, notFound } from '../http/errors.ts';
import { readJson, readQuery, uuidId } from '../http/validation.ts';
import { auditChange, type ChangeRecord } from './audit-change.ts';
import type { ConsoleEnv } from './routes.ts';

type Db = Kysely<Database>;
type CardRow = Selectable<GiftCardsTable>;

const PAGE_SIZE = 25;
/** RFC 4648 base32: no 0/1/8/9 to mistake for O/I/B/g when a code is read out or typed. */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const CODE_BYTES = 10;

export const GIFT_CARD_MESSAGES = {
  alreadyDisabled: 'This gift card is already disabled.',
  disabledNoChange: 'A disabled gift card’s balance cannot change.',
  belowZero: (balanceCents: number) =>
    `The balance is ${formatCurrency(balanceCents)}: a change can take at most that much away.`,
} as const;

/** 16 characters of base32 from 10 random bytes: 80 bits, beyond any guessing under the apply rate limits. */
export function newGiftCardCode(): string {
  let bits = 0;
  let value = 0;
  let code = '';
  for (const byte of randomBytes(CODE_BYTES)) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      code += ALPHABET.charAt((value >>> (bits - 5)) & 31);
      bits -= 5;
    }
  }
  return code;
}

/** All but the last four characters hidden: enough to tell cards apart, never enough to spend one. */
export const maskCode = (code: string) => '•'.repeat(Math.max(code.length - 4, 4)) + code.slice(-4);

const cardAnswer = (row: CardRow, code: string): ConsoleGiftCard => ({
  id: row.id,
  code,
  balance: centsToDecimal(row.balance_cents),
  initial: centsToDecimal(row.initial_cents),
  disabled: row.disabled_at !== null,
  expires_at: row.expires_at?.toISOString() ?? null,
  created_at: row.created_at.toISOString(),
});

async function detailAnswer(db: Db, storeId: number, cardId: string): Promise<ConsoleGiftCardDetail | null> {
  const card = await db
    .selectFrom('gift_cards')
    .selectAll()
    .where('id', '=', cardId)
    .where('store_id', '=', storeId)
    .executeTakeFirst();
  if (!card) return null;
  const [events, debits] = await Promise.all([
    db
      .selectFrom('gift_card_events')
      .select(['kind', 'amount_cents', 'note', 'actor', 'at'])
      .where('gift_card_id', '=', cardId)
      .execute(),
    db
      .selectFrom('gift_card_debits as d')
      .innerJoin('orders as o', 'o.id', 'd.order_id')
      .select(['d.amount_cents', 'o.number', 'd.created_at'])
      .where('d.gift_card_id', '=', cardId)
      .execute(),
  ]);
  const ledger: (GiftCardLedgerEntry & { time: number })[] = [
    ...events.map((e) => ({
      kind: e.kind,
      amount: centsToDecimal(e.amount_cents),
      note: e.note,
      actor: e.actor,
      order_number: null,
      at: e.at.toISOString(),
      time: e.at.getTime(),
    })),
    ...debits.map((d) => ({
      kind: 'redemption' as const,
      amount: centsToDecimal(-d.amount_cents),
      note: '',
      actor: null,
      order_number: d.number,
      at: d.created_at.toISOString(),
      time: d.created_at.getTime(),
    })),
  ];
  ledger.sort((a, b) => b.time - a.time);
  return { ...cardAnswer(card, maskCode(card.code)), ledger: ledger.map(({ time: _, ...entry }) => entry) };
}

type LedgerEvent = {
  kind: GiftCardEventsTable['kind'];
  amount: number;
  balanceAfter: number;
  note: string;
};
type GiftCardChange = { event: LedgerEvent; audit: Omit<ChangeRecord, 'entity' | 'entityId'> };

/** One entry of the card's ledger, by the signed-in operator. */
async function recordEvent(trx: Db, c: Context<ConsoleEnv>, cardId: string, event: LedgerEvent, at: Date) {
  await trx
    .insertInto('gift_card_events')
    .values({
      gift_card_id: cardId,
      kind: event.kind,
      amount_cents: event.amount,
      balance_after_cents: event.balanceAfter,
      note: event.note,
      operator_id: c.var.session.operatorId,
      actor: c.var.session.email,
      at,
    })
    .execute();
}

/** `…/stores/{slug}/gift_cards…` of the console API. */
export function consoleGiftCardRoutes({ db, clock }: AppDeps) {
  const app = new Hono<ConsoleEnv>();

  app.get('/', async (c) => {
    const { page } = readQuery(c, consoleGiftCardsQuery);
    const storeId = c.var.consoleStore.id;
    const [rows, total] = await Promise.all([
      db
        .selectFrom('gift_cards')
        .selectAll()
        .where('store_id', '=', storeId)
        .orderBy('created_at', 'desc')
        .orderBy('code')
        .limit(PAGE_SIZE)
        .offset((page - 1) * PAGE_SIZE)
        .execute(),
      db
        .selectFrom('gift_cards')
        .select(sql<number>`count(*)::int`.as('total'))
        .where('store_id', '=', storeId)
        .executeTakeFirstOrThrow(),
    ]);
    return c.json({
      data: rows.map((row) => cardAnswer(row, maskCode(row.code))),
      meta: { total: total.total, page, perPage: PAGE_SIZE },
    });
  });

  app.post('/', async (c) => {
    const { amount, note } = await readJson(c, issueGiftCardPayload);
    const storeId = c.var.consoleStore.id;
    const now = clock.now();
    const card = await db.transaction().execute(async (trx) => {
      let row: CardRow | undefined;
      // 80 random bits collide with an existing code practically never; a collision just draws again.
      while (!row) {
        row = await trx
          .insertInto('gift_cards')
          .values({
            id: randomUUID(),
            store_id: storeId,
            code: newGiftCardCode(),
            balance_cents: amount,
            initial_cents: amount,
            expires_at: null,
            created_at: now,
          })
          .onConflict((oc) => oc.columns(['store_id', 'code']).doNothing())
          .returningAll()
          .executeTakeFirst();
      }
      await recordEvent(trx, c, row.id, { kind: 'issue', amount, balanceAfter: amount, note }, now);
      // The audit log keeps the masked code: the full one is shown once, to the operator who issued it.
      await auditChange(trx, c.var, now, {
        action: 'gift_card.issue',
        entity: 'gift_card',
        entityId: row.id,
        before: null,
        after: { code: maskCode(row.code), balance: centsToDecimal(amount), note },
      });
      return row;
    });
    return c.json({ data: cardAnswer(card, card.code) }, 201);
  });

  app.get('/:id', async (c) => {
    const answer = await detailAnswer(db, c.var.consoleStore.id, uuidId(c.req.param('id')));
    if (!answer) throw notFound();
    return c.json({ data: answer });
  });

  /**
   * A change of one card of the store: in one transaction with the card's row locked (404 when it is not
   * this store's), `apply` writes it and answers its ledger entry, which is written beside the audit's.
   */
  async function changeCard(
    c: Context<ConsoleEnv>,
    apply: (trx: Db, card: CardRow, now: Date) => Promise<GiftCardChange>,
  ): Promise<ConsoleGiftCardDetail> {
    const cardId = uuidId(c.req.param('id'));
    const storeId = c.var.consoleStore.id;
    const now = clock.now();
    await db.transaction().execute(async (trx) => {
      const card = await trx
        .selectFrom('gift_cards')
        .selectAll()
        .where('id', '=', cardId)
        .where('store_id', '=', storeId)
        .forUpdate()
        .executeTakeFirst();
      if (!card) throw notFound();
      const change = await apply(trx, card, now);
      await recordEvent(trx, c, card.id, change.event, now);
      await auditChange(trx, c.var, now, { entity: 'gift_card', entityId: card.id, ...change.audit });
    });
    return (await detailAnswer(db, storeId, cardId))!;
  }

  app.post('/:id/adjustments', async (c) => {
    const { change, note } = await readJson(c, giftCardAdjustmentPayload);
    const data = await changeCard(c, async (trx, card) => {
      if (card.disabled_at) throw conflict(GIFT_CARD_MESSAGES.disabledNoChange);
      // Relative, under the row lock an order's debit takes too: neither can lose the other's change.
      const balance = card.balance_cents + change;
      if (balance < 0) throw invalidField('change', GIFT_CARD_MESSAGES.belowZero(card.balance_cents));
      await trx.updateTable('gift_cards').set({ balance_cents: balance }).where('id', '=', card.id).execute();
      return {
        event: { kind: 'adjustment', amount: change, balanceAfter: balance, note },
        audit: {
          action: 'gift_card.adjust',
          before: { balance: centsToDecimal(card.balance_cents) },
          after: { balance: centsToDecimal(balance), change: centsToDecimal(change), note },
        },
      };
    });
    return c.json({ data });
  });

  app.post('/:id/disable', async (c) => {
    const { note } = await readJson(c, disableGiftCardPayload, { emptyAs: {} });
    const data = await changeCard(c, async (trx, card, now) => {
      if (card.disabled_at) throw conflict(GIFT_CARD_MESSAGES.alreadyDisabled);
      await trx.updateTable('gift_cards').set({ disabled_at: now }).where('id', '=', card.id).execute();
      return {
        event: { kind: 'disable', amount: 0, balanceAfter: card.balance_cents, note },
        audit: { action: 'gift_card.disable', before: { disabled: false }, after: { disabled: true, note } },
      };
    });
    return c.json({ data });
  });

  return app;
}
