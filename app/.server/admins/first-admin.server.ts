import { href } from "react-router";
import { terminal } from "#app/i18n/pt-BR.ts";
import type { AppServices } from "#app/.server/app.server.ts";
import { createVerifiedAccount, unknowablePassword } from "#app/.server/auth/accounts.server.ts";

export const DEMO_ADMIN_EMAIL = "admin@esporteemfoco.local";

/**
 * How a newcomer signs in on an installation without admins. With DEMO_ADMIN (`npm run dev`, `npm run demo`) a demo
 * admin is created with a random password printed once to the console. Otherwise no account is ever created with a
 * known or printed password: the console says which command creates one (it asks for the password).
 */
export async function announceFirstAdmin(services: Pick<AppServices, "admins" | "betterAuth" | "config">): Promise<void> {
  if ((await services.admins.list()).length > 0) return;
  const url = `${services.config.site.url}${href("/admin/login")}`;
  if (services.config.demoAdmin) {
    const existing = await services.admins.findUser(DEMO_ADMIN_EMAIL);
    if (existing) return;
    const password = `${unknowablePassword().slice(0, 12)}-A1`;
    const userId = await createVerifiedAccount(services.betterAuth, services.config.auth.passwordPolicy, {
      email: DEMO_ADMIN_EMAIL,
      name: terminal.firstAdmin.demoName,
      password,
    });
    await services.admins.grant(userId);
    console.log(terminal.firstAdmin.demoCreated(DEMO_ADMIN_EMAIL, password, url));
    return;
  }
  console.log(terminal.firstAdmin.noAdmin(url));
}
