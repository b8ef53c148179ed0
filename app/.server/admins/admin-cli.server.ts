import { parseArgs } from "node:util";
import type { AppServices } from "../app.server.ts";

const USAGE = `Uso:
  npm run admin -- create --email EMAIL --password SENHA [--name NOME]   cria uma conta de administrador
                                                                        (ou dá acesso a uma conta existente)
  npm run admin -- grant <id-ou-email>                                  dá acesso de administrador
  npm run admin -- revoke <id-ou-email>                                 retira o acesso (e encerra as sessões)
  npm run admin -- list                                                 lista os administradores`;

export class CliError extends Error {
  override name = "CliError";
}

/** The options of `create`; an unknown or incomplete option is bad input (CliError), not a crash. */
function parseOptions(args: string[]) {
  try {
    return parseArgs({
      args,
      options: { email: { type: "string" }, password: { type: "string" }, name: { type: "string" } },
      strict: true,
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code !== "string" || !code.startsWith("ERR_PARSE_ARGS_")) throw error;
    const option = /'(-[^']*)'/.exec((error as Error).message)?.[1];
    throw new CliError(`Opção inválida${option ? ` (${option})` : ""}.\n${USAGE}`);
  }
}

/**
 * The admin command line. Returns what to print; throws CliError (with a pt-BR message) on bad input.
 * Kept apart from the script so tests can run it against a real database.
 */
export async function runAdminCli(argv: string[], services: Pick<AppServices, "admins" | "betterAuth">): Promise<string> {
  const [command, ...rest] = argv;
  switch (command) {
    case "create": {
      const { values } = parseOptions(rest);
      const email = values.email?.trim().toLowerCase();
      if (!email || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new CliError("Informe um e-mail válido com --email.");
      const existing = await services.admins.findUser(email);
      if (existing) {
        await services.admins.grant(existing.id);
        return `Conta existente ${existing.email} (${existing.id}) agora é administradora. A senha não foi alterada.`;
      }
      if (!values.password) throw new CliError("Informe a senha com --password.");
      let userId: string;
      try {
        const created = await services.betterAuth.api.signUpEmail({
          body: { email, password: values.password, name: values.name ?? email.split("@")[0] ?? email },
        });
        userId = created.user.id;
        if (created.token) await (await services.betterAuth.$context).internalAdapter.deleteSession(created.token);
      } catch (error) {
        throw new CliError(`Não foi possível criar a conta: ${error instanceof Error ? error.message : String(error)}`);
      }
      await services.admins.grant(userId);
      return `Administrador criado: ${email} (${userId}). Entre em /admin/login.`;
    }
    case "grant":
    case "revoke": {
      const target = rest[0];
      if (!target || rest.length > 1) throw new CliError(`Uso: npm run admin -- ${command} <id-ou-email>`);
      const user = await services.admins.findUser(target);
      if (!user) throw new CliError(`Nenhuma conta encontrada com id ou e-mail "${target}".`);
      if (command === "grant") {
        await services.admins.grant(user.id);
        return `${user.email} (${user.id}) agora é administrador.`;
      }
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
