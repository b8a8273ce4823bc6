/**
 * A real SMTP server on 127.0.0.1 for the mail tests (the `smtp-server` package), keeping every
 * message it accepted, parsed with `mailparser`. It can be stopped and started again on the same
 * port (SMTP down: nothing listens) and told to answer a reply code instead of accepting.
 */
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export type SinkMode = { accept: true } | { accept: false; code: number; message: string; at: 'RCPT TO' | 'DATA' };

export class SmtpSink {
  readonly received: ParsedMail[] = [];
  /** How the server answers a message: accept it, or refuse it with this reply. */
  mode: SinkMode = { accept: true };
  /** Messages refused on purpose (each is one delivery attempt that reached the server). */
  refused = 0;
  #server: SMTPServer | null = null;
  #port = 0;
  #waiting: { count: number; resolve: (mails: ParsedMail[]) => void }[] = [];

  get port(): number {
    return this.#port;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.#port}`;
  }

  get listening(): boolean {
    return this.#server !== null;
  }

  /** Listens on the port it had before (or a free one the first time). */
  async start(): Promise<this> {
    const refuse = (at: 'RCPT TO' | 'DATA') => {
      const mode = this.mode;
      if (mode.accept || mode.at !== at) return null;
      this.refused++;
      return Object.assign(new Error(mode.message), { responseCode: mode.code });
    };
    const server = new SMTPServer({
      secure: false,
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      closeTimeout: 1000,
      onRcptTo: (_address, _session, callback) => callback(refuse('RCPT TO')),
      onData: (stream, _session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const refusal = refuse('DATA');
          if (refusal) {
            callback(refusal);
            return;
          }
          simpleParser(Buffer.concat(chunks)).then(
            (mail) => {
              this.received.push(mail);
              this.#settleWaiters();
              callback();
            },
            (error: unknown) => callback(error as Error),
          );
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.server.once('error', reject);
      server.listen(this.#port, '127.0.0.1', () => resolve());
    });
    this.#port = (server.server.address() as AddressInfo).port;
    this.#server = server;
    return this;
  }

  /** Stops listening: a client then finds nothing on the port (connection refused). */
  async stop(): Promise<void> {
    const server = this.#server;
    this.#server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Resolves once `count` messages in all have been received. */
  waitFor(count: number): Promise<ParsedMail[]> {
    return new Promise((resolve) => {
      this.#waiting.push({ count, resolve });
      this.#settleWaiters();
    });
  }

  #settleWaiters() {
    this.#waiting = this.#waiting.filter((w) => {
      if (this.received.length < w.count) return true;
      w.resolve(this.received.slice());
      return false;
    });
  }
}
