import type { Kysely } from 'kysely';
import type { Config } from '../config.ts';
import type { Database } from '../db/schema.ts';
import type { Clock, Logger } from '../http/context.ts';
import { createOutboxWorker, type OutboxWorker } from './outbox-worker.ts';
import { createLogTransport, createSmtpTransport } from './transport.ts';

/**
 * The runtime's mail: an outbox worker delivering through SMTP_URL, or into the log (mails then stay
 * readable in the outbox) without it. Polls until stop(), which also closes the transport.
 */
export function startMailOutbox(parts: {
  db: Kysely<Database>;
  config: Config;
  clock: Clock;
  logger: Logger;
}): OutboxWorker {
  const { config, logger } = parts;
  const transport = config.SMTP_URL
    ? createSmtpTransport(config.SMTP_URL, config.MAIL_FROM)
    : createLogTransport(logger);
  const worker = createOutboxWorker({
    ...parts,
    transport,
    retry: {
      baseSeconds: config.MAIL_RETRY_BASE_SECONDS,
      maxSeconds: config.MAIL_RETRY_MAX_SECONDS,
      maxAttempts: config.MAIL_MAX_ATTEMPTS,
    },
  });
  worker.start();
  logger.info({ delivery: config.SMTP_URL ? 'smtp' : 'log and dev outbox' }, 'mail outbox worker started');
  return {
    ...worker,
    async stop() {
      await worker.stop();
      transport.close();
    },
  };
}
