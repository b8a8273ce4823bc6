/**
 * Where the outbox worker hands mails: SMTP (nodemailer) when SMTP_URL is set, otherwise the log,
 * the mail staying readable in the outbox table (docs/decisions/100-mail-outbox.md).
 */
import nodemailer from 'nodemailer';
import type { Logger } from '../http/context.ts';

export type OutgoingMail = {
  messageId: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
};

export type MailTransport = {
  /** Resolves once the receiving server accepted the mail; throws MailDeliveryError otherwise. */
  deliver(mail: OutgoingMail): Promise<void>;
  close(): void;
};

/** A delivery that failed; `permanent` when trying again cannot help (the recipient was refused). */
export class MailDeliveryError extends Error {
  readonly permanent: boolean;
  constructor(message: string, options: { cause?: unknown; permanent: boolean }) {
    super(message, { cause: options.cause });
    this.name = 'MailDeliveryError';
    this.permanent = options.permanent;
  }
}

/**
 * SMTP timeouts stay well inside the worker's lease (outbox-worker.ts), so a delivery that hangs is
 * abandoned before another worker may take the mail over.
 */
export const SMTP_TIMEOUTS = { connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 } as const;

type SmtpFailure = {
  code?: string;
  command?: string;
  responseCode?: number;
  response?: string;
};

// A 5xx answer to RCPT TO or DATA refuses this mail for good (RFC 5321 §4.2.1); a 5xx elsewhere
// (authentication, MAIL FROM) is the relay's configuration, which an operator can fix: retried.
function isPermanent(error: SmtpFailure): boolean {
  if (error.code === 'EENVELOPE' && error.command === 'API') return true;
  const code = error.responseCode ?? 0;
  return code >= 500 && code < 600 && (error.command === 'RCPT TO' || error.command === 'DATA');
}

/** Real mail through SMTP_URL, multipart/alternative when the mail has an HTML part. */
export function createSmtpTransport(smtpUrl: string, from: string): MailTransport {
  const transport = nodemailer.createTransport({ url: smtpUrl, ...SMTP_TIMEOUTS });
  return {
    async deliver(mail) {
      try {
        await transport.sendMail({
          from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          ...(mail.html ? { html: mail.html } : {}),
          messageId: mail.messageId,
          // RFC 3834: tells auto-responders not to answer a machine's mail.
          headers: { 'Auto-Submitted': 'auto-generated' },
        });
      } catch (error) {
        const failure = (error ?? {}) as SmtpFailure;
        const detail = failure.response ?? (error instanceof Error ? error.message : String(error));
        throw new MailDeliveryError(`SMTP delivery failed: ${detail}`, {
          cause: error,
          permanent: isPermanent(failure),
        });
      }
    },
    close() {
      transport.close();
    },
  };
}

/** Without SMTP the mail is printed in the log and stays in the outbox table, where a developer reads it. */
export function createLogTransport(logger: Logger): MailTransport {
  return {
    deliver(mail) {
      logger.info(
        { to: mail.to, subject: mail.subject, messageId: mail.messageId, text: mail.text },
        'mail (dev outbox)',
      );
      return Promise.resolve();
    },
    close() {},
  };
}
