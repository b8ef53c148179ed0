/**
 * A real SMTP receiver (smtp-server) on 127.0.0.1 for the end-to-end suite: every message the site sends is parsed
 * (mailparser) and kept in memory, so a test can read the password-reset e-mail and follow its link.
 * Give the site `env: { SMTP_URL: smtp.url }`.
 */
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { freePort } from "#tests/factories/site.ts";

export interface ReceivedMail {
  /** Envelope recipients (RCPT TO), lower-cased. */
  to: string[];
  from: string;
  subject: string;
  text: string;
  parsed: ParsedMail;
}

export interface SmtpReceiver {
  /** `smtp://127.0.0.1:<port>` (no TLS, no authentication). */
  url: string;
  messages: ReceivedMail[];
  /** Messages sent to `address` so far. */
  messagesTo(address: string): ReceivedMail[];
  /** Waits until a message for `address` arrives (default 10 s) and returns the newest one. */
  waitForMessage(address: string, timeoutMs?: number): Promise<ReceivedMail>;
  stop(): Promise<void>;
}

export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const messages: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    disableReverseLookup: true,
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          messages.push({
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            subject: parsed.subject ?? "",
            text: parsed.text ?? "",
            parsed,
          });
          for (const wake of waiters) wake();
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const messagesTo = (address: string) => messages.filter((message) => message.to.includes(address.toLowerCase()));
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    messagesTo,
    async waitForMessage(address, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messagesTo(address);
        if (found.length) return found[found.length - 1]!;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`Nenhum e-mail para ${address} em ${timeoutMs} ms (recebidos: ${messages.length})`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(wake, Math.min(left, 250));
          waiters.add(wake);
        });
      }
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
