import { parseArgs } from "node:util";
import type { AppServices } from "../app.server.ts";
import { createVerifiedAccount, deleteAccount, PasswordPolicyError, unknowablePassword } from "../auth/accounts.server.ts";

const USAGE = `Uso:
  npm run admin -- create --email EMAIL [--name NOME]     cria uma conta de administrador; a senha é pedida no
                                                         terminal (ou lida da entrada padrão)
        [--send-link]            em vez de pedir a senha, envia por e-mail um link para a pessoa definir a dela
        [--password SENHA]       só para scripts: a senha fica no histórico do shell e visível em \`ps\`
        [--yes]                  confirma dar acesso a uma conta que já existe (com e-mail confirmado)
        [--replace-unverified]   apaga uma conta de mesmo e-mail que nunca confirmou o endereço e cria a nova
  npm run admin -- grant <id-ou-email> [--yes]            dá acesso de administrador a uma conta com e-mail confirmado
  npm run admin -- revoke <id-ou-email>                   retira o acesso (e encerra as sessões)
  npm run admin -- list                                   lista os administradores`;

export class CliError extends Error {
  override name = "CliError";
}

/** The terminal, as the command sees it (tests pass their own). */
export interface CliIO {
  /** Whether a person is at the terminal (standard input is a TTY): then the command may ask questions. */
  interactive: boolean;
  /** Asks a question and returns the answer (a line). */
  ask(question: string): Promise<string>;
  /** Asks for a secret without echoing it. */
  askHidden(question: string): Promise<string>;
  /** The first line of standard input (for `echo "$SENHA" | npm run admin -- create …`). */
  readStdinLine(): Promise<string>;
  /** A warning for the operator (standard error). */
  warn(message: string): void;
}

/** A terminal nobody answers (scripts, tests): no questions, the password (if any) from standard input. */
export const NON_INTERACTIVE_IO: CliIO = {
  interactive: false,
  ask: () => Promise.reject(new CliError("Sem terminal para perguntar.")),
  askHidden: () => Promise.reject(new CliError("Sem terminal para perguntar.")),
  readStdinLine: () => Promise.resolve(""),
  warn: (message) => void process.stderr.write(`${message}\n`),
};

type CliServices = Pick<AppServices, "admins" | "betterAuth" | "config" | "auth">;

const OPTIONS = {
  email: { type: "string" },
  password: { type: "string" },
  name: { type: "string" },
  yes: { type: "boolean" },
  "send-link": { type: "boolean" },
  "replace-unverified": { type: "boolean" },
} as const;

/** The options of a command; an unknown or incomplete option is bad input (CliError), not a crash. */
function parseOptions(args: string[]) {
  try {
    return parseArgs({ args, options: OPTIONS, strict: true, allowPositionals: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code !== "string" || !code.startsWith("ERR_PARSE_ARGS_")) throw error;
    const option = /'(-[^']*)'/.exec((error as Error).message)?.[1];
    throw new CliError(`Opção inválida${option ? ` (${option})` : ""}.\n${USAGE}`);
  }
}

const unverifiedRefusal = (email: string) =>
  `A conta ${email} existe, mas o e-mail dela nunca foi confirmado: qualquer pessoa pode tê-la criado pelo ` +
  `formulário de registro. Por segurança ela não recebe acesso de administrador.\n` +
  `Para apagá-la e criar a conta de administrador do zero: npm run admin -- create --email ${email} --replace-unverified`;

/**
 * Gives admin rights to an existing account. Only an account whose owner proved the address (followed the
 * confirmation or a reset link, or was created by this command) qualifies: an account anyone could have
 * registered with the newsroom's address never becomes admin. The operator confirms, and every session the account
 * had is ended (whoever was signed in with it must sign in again, now under the operator's eyes).
 */
async function grantExisting(
  services: CliServices,
  io: CliIO,
  user: { id: string; email: string; emailVerified: boolean; createdAt: string },
  confirmed: boolean,
): Promise<string> {
  if (!user.emailVerified) throw new CliError(unverifiedRefusal(user.email));
  if (await services.admins.isAdmin(user.id)) return `${user.email} (${user.id}) já é administrador.`;
  if (!confirmed) {
    if (!io.interactive) {
      throw new CliError(`A conta ${user.email} já existe. Para dar acesso de administrador a ela, repita o comando com --yes.`);
    }
    const answer = await io.ask(
      `A conta ${user.email} (${user.id}, criada em ${user.createdAt.slice(0, 10)}) já existe e tem o e-mail confirmado.\n` +
        `Dar acesso de administrador a ela e encerrar as sessões abertas dela? [s/N] `,
    );
    if (!/^s(im)?$/i.test(answer.trim())) throw new CliError("Nada foi alterado.");
  }
  await services.admins.grant(user.id);
  const ended = await services.admins.endSessions(user.id);
  return `${user.email} (${user.id}) agora é administrador. A senha não foi alterada; ${ended} ${ended === 1 ? "sessão encerrada" : "sessões encerradas"}.`;
}

/** The new account's password: from --password (with a warning), a hidden prompt (asked twice) or standard input. */
async function readNewPassword(io: CliIO, flag: string | undefined): Promise<string> {
  if (flag !== undefined) {
    io.warn("Aviso: --password deixa a senha no histórico do shell e visível a outros usuários em `ps`. Prefira digitá-la quando pedida.");
    return flag;
  }
  if (!io.interactive) {
    const line = await io.readStdinLine();
    if (!line) throw new CliError("Informe a senha na entrada padrão (uma linha), digite-a no terminal ou use --send-link.");
    return line;
  }
  const first = await io.askHidden("Senha do novo administrador: ");
  const second = await io.askHidden("Repita a senha: ");
  if (first !== second) throw new CliError("As senhas não conferem. Nada foi criado.");
  return first;
}

/**
 * The admin command line. Returns what to print; throws CliError (with a pt-BR message) on bad input.
 * Kept apart from the script so tests can run it against a real database.
 */
export async function runAdminCli(argv: string[], services: CliServices, io: CliIO = NON_INTERACTIVE_IO): Promise<string> {
  const [command, ...rest] = argv;
  switch (command) {
    case "create": {
      const { values, positionals } = parseOptions(rest);
      if (positionals.length) throw new CliError(`Argumento inesperado: ${positionals[0]}.\n${USAGE}`);
      const email = values.email?.trim().toLowerCase();
      if (!email || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new CliError("Informe um e-mail válido com --email.");
      if (values["send-link"] && values.password !== undefined) throw new CliError("Use --send-link ou --password, não os dois.");
      let existing = await services.admins.findUser(email);
      if (existing && !existing.emailVerified && values["replace-unverified"]) {
        await deleteAccount(services.betterAuth, existing.id);
        io.warn(`A conta não confirmada ${email} (${existing.id}) foi apagada.`);
        existing = undefined;
      }
      if (existing) return grantExisting(services, io, existing, Boolean(values.yes));

      const sendLink = Boolean(values["send-link"]);
      const password = sendLink ? unknowablePassword() : await readNewPassword(io, values.password);
      let userId: string;
      try {
        userId = await createVerifiedAccount(services.betterAuth, services.config.auth.passwordPolicy, {
          email,
          password,
          name: values.name ?? email.split("@")[0] ?? email,
        });
      } catch (error) {
        const detail = error instanceof PasswordPolicyError ? error.message : error instanceof Error ? error.message : String(error);
        throw new CliError(`Não foi possível criar a conta: ${detail}`);
      }
      await services.admins.grant(userId);
      if (!sendLink) return `Administrador criado: ${email} (${userId}). Entre em /admin/login.`;
      const sent = await services.auth.sendSetPasswordLink(email);
      const where = sent === "outbox" ? ` O e-mail foi gravado em ${services.config.mail.outboxDir} (SMTP_URL não definido).` : "";
      return `Administrador criado: ${email} (${userId}). Um link para definir a senha (válido por 1 hora) foi enviado para ${email}.${where}`;
    }
    case "grant": {
      const { values, positionals } = parseOptions(rest);
      const target = positionals[0];
      if (!target || positionals.length > 1) throw new CliError("Uso: npm run admin -- grant <id-ou-email> [--yes]");
      const user = await services.admins.findUser(target);
      if (!user) throw new CliError(`Nenhuma conta encontrada com id ou e-mail "${target}".`);
      return grantExisting(services, io, user, Boolean(values.yes));
    }
    case "revoke": {
      const target = rest[0];
      if (!target || rest.length > 1) throw new CliError("Uso: npm run admin -- revoke <id-ou-email>");
      const user = await services.admins.findUser(target);
      if (!user) throw new CliError(`Nenhuma conta encontrada com id ou e-mail "${target}".`);
      const was = await services.admins.revoke(user.id);
      return was ? `${user.email} (${user.id}) não é mais administrador.` : `${user.email} (${user.id}) já não era administrador.`;
    }
    case "list": {
      const admins = await services.admins.list();
      if (!admins.length) return "Nenhum administrador cadastrado.";
      return admins.map((admin) => `${admin.userId}  ${admin.email ?? "(conta removida)"}  desde ${admin.grantedAt}`).join("\n");
    }
    default:
      throw new CliError(USAGE);
  }
}
