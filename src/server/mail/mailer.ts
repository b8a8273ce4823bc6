import nodemailer from 'nodemailer';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Logger } from '../http/context.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** Real mail through SMTP_URL. */
export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(message) {
      await transport.sendMail({ from, ...message });
    },
  };
}

/** Without SMTP the message is logged and kept in dev_outbox, so a developer can follow the link. */
export function createDevMailer(db: Kysely<Database>, logger: Logger): Mailer {
  return {
    async send(message) {
      logger.info({ to: message.to, subject: message.subject, text: message.text }, 'mail (dev outbox)');
      await db.insertInto('dev_outbox').values({ to_address: message.to, subject: message.subject, body: message.text }).execute();
    },
  };
}
