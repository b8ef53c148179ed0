import path from "node:path";
import type { Transporter } from "nodemailer";
import { makePrivateDir, writePrivateFile } from "#app/.server/config/data-dir.server.ts";
import type { AppConfig } from "#app/.server/config/env.server.ts";
import type { Logger } from "#app/.server/logger.server.ts";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /** `outbox` when messages are written to DATA_DIR/outbox instead of being sent. */
  readonly mode: "smtp" | "outbox";
  send(message: MailMessage): Promise<void>;
  /** Resolves once every message handed to `send` so far has been sent or has failed (before a CLI exits). */
  idle(): Promise<void>;
}

/** Wraps a sender so the mailer knows which sends are still in flight. */
function tracked(mode: Mailer["mode"], deliver: (message: MailMessage) => Promise<void>): Mailer {
  const inFlight = new Set<Promise<void>>();
  return {
    mode,
    send(message) {
      const sending = deliver(message);
      const settled = sending.then(
        () => undefined,
        () => undefined,
      );
      inFlight.add(settled);
      void settled.finally(() => inFlight.delete(settled));
      return sending;
    },
    async idle() {
      while (inFlight.size) await Promise.all(inFlight);
    },
  };
}

/**
 * Sends mail through SMTP when SMTP_URL is set. Otherwise every message is written as an .eml file to
 * DATA_DIR/outbox/ and its location logged, so a newcomer can follow a reset link without a mail server.
 */
export function createMailer(config: Pick<AppConfig, "mail">, log: Logger): Mailer {
  const { smtpUrl, from, outboxDir } = config.mail;
  // nodemailer is loaded with the first message, not at start (most requests never send mail).
  let transporting: Promise<Transporter> | undefined;
  const transport = () =>
    (transporting ??= import("nodemailer").then(({ default: nodemailer }) =>
      smtpUrl ? nodemailer.createTransport(smtpUrl) : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" }),
    ));
  if (smtpUrl) {
    return tracked("smtp", async (message) => {
      await (await transport()).sendMail({ from, ...message });
      log.info({ to: message.to, subject: message.subject }, "mail sent via SMTP");
    });
  }
  return tracked("outbox", async (message) => {
    const info = await (await transport()).sendMail({ from, ...message });
    // The messages carry reset and confirmation links: readable by the server's user only.
    makePrivateDir(outboxDir);
    const file = path.join(outboxDir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${info.messageId.replace(/[^\w.-]/g, "")}.eml`);
    writePrivateFile(file, info.message as Buffer);
    log.info({ to: message.to, subject: message.subject, file }, "mail written to outbox (SMTP_URL not set)");
  });
}
