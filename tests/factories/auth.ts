import type { Role } from "#app/lib/roles.ts";
import type { AppServices } from "#app/.server/app.server.ts";
import { createVerifiedAccount } from "#app/.server/auth/accounts.server.ts";

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
 * A user with an e-mail + password account, left without a session. By default its address is verified (as an
 * account whose owner followed the confirmation link, or that the admin command created), and no mail is sent; with
 * `verified: false` it is created exactly as self-registration does (unverified, confirmation mail sent). Not an
 * admin unless `admin` is set.
 */
export async function createUser(
  services: Pick<AppServices, "betterAuth" | "admins" | "config">,
  input: { email?: string; password?: string; name?: string; admin?: boolean; role?: Role; verified?: boolean } = {},
): Promise<TestAccount> {
  const email = (input.email ?? uniqueEmail()).toLowerCase();
  const password = input.password ?? "senha-segura-1";
  const name = input.name ?? email.split("@")[0]!;
  let id: string;
  if (input.verified === false) {
    const created = await (await services.betterAuth.get()).api.signUpEmail({ body: { email, password, name } });
    id = created.user.id;
  } else {
    id = await createVerifiedAccount(services.betterAuth, services.config.auth.passwordPolicy, { email, password, name });
  }
  if (input.admin || input.role) await services.admins.grant(id, input.role ?? "admin");
  return { id, email, password };
}

/** A newsroom member with this role (reporter, editor or admin) and an e-mail + password account. */
export function createMember(
  services: Pick<AppServices, "betterAuth" | "admins" | "config">,
  role: Role,
  input: { email?: string; password?: string; name?: string } = {},
): Promise<TestAccount> {
  return createUser(services, { ...input, email: input.email ?? uniqueEmail(role), role });
}

/** An administrator (a user in the `admins` table) with an e-mail + password account. */
export function createAdmin(
  services: Pick<AppServices, "betterAuth" | "admins" | "config">,
  input: { email?: string; password?: string; name?: string } = {},
): Promise<TestAccount> {
  return createUser(services, { ...input, email: input.email ?? uniqueEmail("admin"), admin: true });
}
