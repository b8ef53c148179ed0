import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CliError, runAdminCli } from "../../app/.server/admins/admin-cli.server.ts";
import { t } from "../../app/i18n/pt-BR.ts";
import { createAdmin, createUser, uniqueEmail } from "../factories/auth.ts";
import { createTestServices, makeDataDir } from "../factories/services.ts";

type Services = Awaited<ReturnType<typeof createTestServices>>;

const opened: Services[] = [];
async function open(env: Record<string, string> = {}): Promise<Services> {
  const services = await createTestServices(makeDataDir("eef-cli-"), env);
  opened.push(services);
  return services;
}
afterEach(async () => {
  for (const services of opened.splice(0)) {
    await services.close();
    fs.rmSync(services.dataDir, { recursive: true, force: true });
  }
});

const cli = (services: Services, ...argv: string[]) => runAdminCli(argv, services);

async function cliError(promise: Promise<unknown>): Promise<CliError> {
  const error = await promise.then(
    () => {
      throw new Error("esperava um CliError");
    },
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(CliError);
  return error as CliError;
}

let ip = 0;
const signIn = (services: Services, email: string, password: string) =>
  services.auth.signInWithPassword({ email, password, ip: `10.9.0.${++ip}`, headers: new Headers() });

const sessions = async (services: Services, userId: string) =>
  (await services.database.db.selectFrom("session").select("id").where("userId", "=", userId).execute()).length;

describe("npm run admin -- create", () => {
  it("cria a conta de administrador, sem deixar sessão; ela entra pelo login", async () => {
    const services = await open();
    const output = await cli(services, "create", "--email", "Chefe@Redacao.Example", "--password", "senha-chefe-1", "--name", "Chefe");
    const user = await services.admins.findUser("chefe@redacao.example");
    expect(user).toMatchObject({ email: "chefe@redacao.example", name: "Chefe" });
    expect(output).toBe(`Administrador criado: chefe@redacao.example (${user!.id}). Entre em /admin/login.`);
    expect(await services.admins.isAdmin(user!.id)).toBe(true);
    expect(await sessions(services, user!.id)).toBe(0);
    expect((await signIn(services, "chefe@redacao.example", "senha-chefe-1")).ok).toBe(true);
  });

  it("para um e-mail já cadastrado, dá acesso sem mudar a senha", async () => {
    const services = await open();
    const user = await createUser(services, { password: "senha-antiga-1" });
    const output = await cli(services, "create", "--email", user.email.toUpperCase(), "--password", "senha-nova-9");
    expect(output).toBe(`Conta existente ${user.email} (${user.id}) agora é administradora. A senha não foi alterada.`);
    expect(await services.admins.isAdmin(user.id)).toBe(true);
    expect(await signIn(services, user.email, "senha-nova-9")).toMatchObject({ ok: false, code: "invalid" });
    expect((await signIn(services, user.email, "senha-antiga-1")).ok).toBe(true);
    // Without --password it works too, for an existing account.
    const other = await createUser(services);
    expect(await cli(services, "create", "--email", other.email)).toContain("agora é administradora");
  });

  it("recusa senhas fora da política, com a mensagem em português, e não cria nada", async () => {
    const services = await open({ PASSWORD_REQUIRE_SYMBOL: "1" });
    const short = await cliError(cli(services, "create", "--email", "curta@redacao.example", "--password", "abc"));
    expect(short.message).toBe(
      `Não foi possível criar a conta: ${t.auth.passwordRules.tooShort(6)}\n${t.auth.passwordRules.symbol}`,
    );
    const noSymbol = await cliError(cli(services, "create", "--email", "curta@redacao.example", "--password", "abcdefgh"));
    expect(noSymbol.message).toBe(`Não foi possível criar a conta: ${t.auth.passwordRules.symbol}`);
    expect(await services.admins.findUser("curta@redacao.example")).toBeUndefined();
    expect(await services.admins.list()).toEqual([]);
  });

  it("entrada inválida: CliError com texto em português", async () => {
    const services = await open();
    expect((await cliError(cli(services, "create", "--password", "senha-boa-1"))).message).toBe("Informe um e-mail válido com --email.");
    expect((await cliError(cli(services, "create", "--email", "sem-arroba", "--password", "senha-boa-1"))).message).toBe(
      "Informe um e-mail válido com --email.",
    );
    expect((await cliError(cli(services, "create", "--email", "nova@redacao.example"))).message).toBe("Informe a senha com --password.");
    // Unknown or malformed options are bad input too, not a crash with an English stack trace.
    const unknown = await cliError(cli(services, "create", "--emial", "x@redacao.example", "--password", "senha-boa-1"));
    expect(unknown.message).toMatch(/--emial/);
    expect(unknown.message).not.toMatch(/Unknown option/);
    const missingValue = await cliError(cli(services, "create", "--email"));
    expect(missingValue.message).not.toMatch(/argument missing|Option '--email/);
    expect(await services.admins.list()).toEqual([]);
  });
});

describe("npm run admin -- grant / revoke / list", () => {
  it("grant e revoke por id e por e-mail", async () => {
    const services = await open();
    const byId = await createUser(services);
    const byEmail = await createUser(services);
    expect(await cli(services, "grant", byId.id)).toBe(`${byId.email} (${byId.id}) agora é administrador.`);
    expect(await cli(services, "grant", byEmail.email.toUpperCase())).toBe(`${byEmail.email} (${byEmail.id}) agora é administrador.`);
    expect(await cli(services, "grant", byId.id)).toBe(`${byId.email} (${byId.id}) agora é administrador.`); // idempotent
    expect(await services.admins.isAdmin(byId.id)).toBe(true);
    expect(await services.admins.isAdmin(byEmail.id)).toBe(true);
    expect(await services.admins.list()).toHaveLength(2);

    expect(await cli(services, "revoke", byEmail.email)).toBe(`${byEmail.email} (${byEmail.id}) não é mais administrador.`);
    expect(await cli(services, "revoke", byId.id)).toBe(`${byId.email} (${byId.id}) não é mais administrador.`);
    expect(await cli(services, "revoke", byId.id)).toBe(`${byId.email} (${byId.id}) já não era administrador.`);
    expect(await services.admins.isAdmin(byId.id)).toBe(false);
    expect(await services.admins.isAdmin(byEmail.id)).toBe(false);
  });

  it("revoke encerra as sessões abertas: a próxima requisição já não tem usuário", async () => {
    const services = await open();
    const admin = await createAdmin(services);
    const result = await signIn(services, admin.email, admin.password);
    if (!result.ok) throw new Error("login do admin falhou");
    const cookie = /eef\.session_token=[^;]+/.exec(result.headers.get("set-cookie")!)![0];
    expect(await sessions(services, admin.id)).toBe(1);
    await cli(services, "revoke", admin.email);
    expect(await sessions(services, admin.id)).toBe(0);
    expect(await services.auth.getViewer(new Request("http://localhost/", { headers: { cookie } }))).toBeNull();
  });

  it("list mostra id, e-mail e data de cada administrador, e avisa quando não há nenhum", async () => {
    const services = await open();
    expect(await cli(services, "list")).toBe("Nenhum administrador cadastrado.");
    const first = await createAdmin(services);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await createAdmin(services);
    await createUser(services); // not an admin: not listed
    const lines = (await cli(services, "list")).split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^${first.id}  ${first.email.replace(/[.]/g, "\\.")}  desde \\d{4}-\\d{2}-\\d{2}T`));
    expect(lines[1]).toMatch(new RegExp(`^${second.id}  ${second.email.replace(/[.]/g, "\\.")}  desde `));
  });

  it("entrada inválida: CliError com texto em português", async () => {
    const services = await open();
    expect((await cliError(cli(services, "grant"))).message).toBe("Uso: npm run admin -- grant <id-ou-email>");
    expect((await cliError(cli(services, "revoke", "a", "b"))).message).toBe("Uso: npm run admin -- revoke <id-ou-email>");
    const missing = uniqueEmail("ninguem");
    expect((await cliError(cli(services, "grant", missing))).message).toBe(`Nenhuma conta encontrada com id ou e-mail "${missing}".`);
    expect((await cliError(cli(services, "revoke", "id-inexistente"))).message).toBe(
      'Nenhuma conta encontrada com id ou e-mail "id-inexistente".',
    );
    for (const argv of [[], ["ajuda"], ["--help"]]) {
      const usage = await cliError(runAdminCli(argv, services));
      expect(usage.message).toMatch(/^Uso:/);
      for (const command of ["create --email", "grant <id-ou-email>", "revoke <id-ou-email>", "list"]) {
        expect(usage.message).toContain(`npm run admin -- ${command}`);
      }
    }
  });
});

describe("o script scripts/admin.ts", () => {
  const run = (dataDir: string, ...args: string[]) =>
    spawnSync(process.execPath, [path.resolve("scripts/admin.ts"), ...args], {
      env: { ...process.env, DATA_DIR: dataDir, SEED_DEMO: "0", LOG_LEVEL: "warn", NODE_ENV: "production" },
      encoding: "utf8",
      timeout: 20_000,
    });

  it("cria e lista um administrador; erro de uso sai com código 1 e mensagem em português, sem stack trace", () => {
    const dataDir = makeDataDir("eef-cli-script-");
    try {
      const created = run(dataDir, "create", "--email", "script@redacao.example", "--password", "senha-script-1");
      expect(created.stderr).toBe("");
      expect(created.status).toBe(0);
      expect(created.stdout).toMatch(/^Administrador criado: script@redacao\.example \(/);
      const listed = run(dataDir, "list");
      expect(listed.status).toBe(0);
      expect(listed.stdout).toContain("script@redacao.example");
      const bad = run(dataDir, "grant", "ninguem@redacao.example");
      expect(bad.status).toBe(1);
      expect(bad.stderr.trim()).toBe('Nenhuma conta encontrada com id ou e-mail "ninguem@redacao.example".');
      expect(bad.stdout).toBe("");
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
