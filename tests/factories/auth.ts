import type { AppServices } from "../../app/.server/app.server.ts";

export interface TestAccount {
  id: string;
  email: string;
  password: string;
}

let counter = 0;

/** A unique e-mail address for a test account. */
export function uniqueEmail(prefix = "conta"): string {
  counter++;
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${counter}@teste.example`;
}

/**
 * A user with an e-mail + password account, created through Better Auth exactly as registration does, and left
 * without a session. Not an admin unless `admin` is set.
 */
export async function createUser(
  services: Pick<AppServices, "betterAuth" | "admins">,
  input: { email?: string; password?: string; name?: string; admin?: boolean } = {},
): Promise<TestAccount> {
  const email = (input.email ?? uniqueEmail()).toLowerCase();
  const password = input.password ?? "senha-segura-1";
  const created = await services.betterAuth.api.signUpEmail({
    body: { email, password, name: input.name ?? email.split("@")[0]! },
  });
  if (created.token) await (await services.betterAuth.$context).internalAdapter.deleteSession(created.token);
  if (input.admin) await services.admins.grant(created.user.id);
  return { id: created.user.id, email, password };
}

/** An administrator (a user in the `admins` table) with an e-mail + password account. */
export function createAdmin(
  services: Pick<AppServices, "betterAuth" | "admins">,
  input: { email?: string; password?: string; name?: string } = {},
): Promise<TestAccount> {
  return createUser(services, { ...input, email: input.email ?? uniqueEmail("admin"), admin: true });
}
