/**
 * The outbox worker (docs/decisions/100-mail-outbox.md): claims due mails with a lease, hands each
 * to the transport, and records the outcome: sent, retried later with exponential backoff, or
 * given up. Every API instance runs one; the lease keeps them from holding the same mail at once.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock, Logger } from '../http/context.ts';
import {
  claimDueMails,
  recordFailure,
  recordSent,
  releaseClaims,
  type ClaimedMail,
  type MailWakeup,
} from './outbox.ts';
import { MailDeliveryError, SMTP_TIMEOUTS, type MailTransport } from './transport.ts';

export type RetryPolicy = {
  baseSeconds: number;
  maxSeconds: number;
  maxAttempts: number;
};

export type OutboxWorkerOptions = {
  db: Kysely<Database>;
  transport: MailTransport;
  clock: Clock;
  logger: Logger;
  retry: RetryPolicy;
  /** How often due mails are looked for when nobody wakes the worker. */
  pollMs?: number;
  batchSize?: number;
  leaseMs?: number;
};

export type RoundResult = {
  delivered: number;
  retried: number;
  failed: number;
};

export type OutboxWorker = {
  /** Polls every pollMs until stop(). */
  start(): void;
  /** One round: delivers every mail due now. Rounds never overlap; a call during one runs after it. */
  deliverDue(): Promise<RoundResult>;
  /** Stops polling and waits for the delivery in flight; claimed mails not yet tried are handed back. */
  stop(): Promise<void>;
} & MailWakeup;

/** A delivery is only started while this much of its lease is left: every SMTP timeout fits inside. */
export const SEND_BUDGET_MS =
  SMTP_TIMEOUTS.connectionTimeout + SMTP_TIMEOUTS.greetingTimeout + SMTP_TIMEOUTS.socketTimeout;
export const DEFAULT_LEASE_MS = 10 * 60_000;

/** Wait before the next attempt after `attempts` failed ones: base × 2^(attempts−1), capped. */
export function retryDelayMs(attempts: number, retry: RetryPolicy): number {
  const exponent = Math.min(Math.max(attempts - 1, 0), 30);
  return Math.min(retry.baseSeconds * 2 ** exponent, retry.maxSeconds) * 1000;
}

export function createOutboxWorker(options: OutboxWorkerOptions): OutboxWorker {
  const { db, transport, clock, logger, retry } = options;
  const pollMs = options.pollMs ?? 5_000;
  const batchSize = options.batchSize ?? 10;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  if (leaseMs <= SEND_BUDGET_MS)
    throw new Error(
      `The outbox lease (${leaseMs} ms) must be longer than one delivery may take (${SEND_BUDGET_MS} ms)`,
    );

  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let tail: Promise<unknown> = Promise.resolve();
  let queued: Promise<RoundResult> | null = null;

  async function deliver(claim: ClaimedMail, result: RoundResult): Promise<void> {
    const { mail } = claim;
    try {
      await transport.deliver({
        messageId: mail.message_id,
        to: mail.to_address,
        subject: mail.subject,
        text: mail.text_body,
        html: mail.html_body,
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const permanent = error instanceof MailDeliveryError && error.permanent;
      const giveUp = permanent || mail.attempts >= retry.maxAttempts;
      const now = clock.now();
      const retryAt = giveUp ? null : new Date(now.getTime() + retryDelayMs(mail.attempts, retry));
      const recorded = await recordFailure(db, claim, message, retryAt, now);
      if (!recorded) return; // the lease ran out and another worker took the mail over
      if (giveUp) {
        result.failed++;
        logger.error(
          { mail: mail.id, kind: mail.kind, attempts: mail.attempts, permanent, err: error },
          'mail given up',
        );
      } else {
        result.retried++;
        logger.warn(
          { mail: mail.id, kind: mail.kind, attempts: mail.attempts, retryAt, reason: message },
          'mail delivery failed; retrying later',
        );
      }
      return;
    }
    try {
      await recordSent(db, mail.id, clock.now());
    } catch (error) {
      // The transport has the mail but the database did not take the fact: once the lease ends the
      // mail is sent again, with the same Message-ID (the duplicate ADR 100 accepts).
      logger.error({ mail: mail.id, kind: mail.kind, err: error }, 'mail sent but not recorded');
      throw error;
    }
    result.delivered++;
  }

  async function round(): Promise<RoundResult> {
    const result: RoundResult = { delivered: 0, retried: 0, failed: 0 };
    while (!stopped) {
      const claims = await claimDueMails(db, clock.now(), leaseMs, batchSize);
      if (claims.length === 0) break;
      let next = 0;
      try {
        while (next < claims.length) {
          const claim = claims[next]!;
          // `stopped` is set by stop() while deliver() is awaited.
          // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
          if (stopped || clock.now().getTime() > claim.leaseEnds.getTime() - SEND_BUDGET_MS) break;
          next++;
          await deliver(claim, result);
        }
      } finally {
        // Mails this worker claimed but will not try now go back at once, not when the lease ends
        // (should that fail too, the lease still ends on its own).
        if (next < claims.length) await releaseClaims(db, claims.slice(next)).catch(() => {});
      }
      if (next < claims.length) break;
    }
    return result;
  }

  function deliverDue(): Promise<RoundResult> {
    // A round not started yet will see every mail committed before it starts: join it.
    if (queued) return queued;
    const next = tail.then(() => {
      queued = null;
      return round();
    });
    queued = next;
    tail = next.catch(() => {});
    return next;
  }

  function runInBackground(reason: string) {
    if (stopped) return;
    deliverDue().catch((error: unknown) => logger.warn({ err: error, reason }, 'mail outbox round failed'));
  }

  return {
    deliverDue,
    wake: () => runInBackground('wake'),
    start() {
      if (timer || stopped) return;
      timer = setInterval(() => runInBackground('poll'), pollMs);
      timer.unref();
      runInBackground('start');
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await tail;
    },
  };
}
