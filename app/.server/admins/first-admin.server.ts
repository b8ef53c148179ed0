import { randomBytes } from "node:crypto";
import type { AppServices } from "../app.server.ts";

export const DEMO_ADMIN_EMAIL = "admin@esporteemfoco.local";

/**
 * How a newcomer signs in on an installation without admins. In development a demo admin is created with a
 * random password printed once to the console. In production no account is ever created with a known or printed
 * password: the console says which command creates one.
 */
export async function announceFirstAdmin(services: Pick<AppServices, "admins" | "betterAuth" | "config">): Promise<void> {
  if ((await services.admins.list()).length > 0) return;
  const url = `${services.config.site.url}/admin/login`;
  if (services.config.env === "development") {
    const password = randomBytes(12).toString("base64url");
    const created = await services.betterAuth.api.signUpEmail({
      body: { email: DEMO_ADMIN_EMAIL, password, name: "Admin de demonstração" },
    });
    if (created.token) await (await services.betterAuth.$context).internalAdapter.deleteSession(created.token);
    await services.admins.grant(created.user.id);
    console.log(
      `\n  Administrador de demonstração criado (desenvolvimento):\n    e-mail: ${DEMO_ADMIN_EMAIL}\n    senha:  ${password}\n  Entre em ${url}. A senha não será mostrada de novo.\n`,
    );
    return;
  }
  console.log(
    `\n  Nenhum administrador cadastrado. Para entrar na redação, crie um em outro terminal:\n    npm run admin -- create --email voce@exemplo.com.br --password 'uma-senha-forte'\n  e acesse ${url}\n`,
  );
}
