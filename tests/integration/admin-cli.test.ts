import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { simpleParser } from "mailparser";
import { CliError, type CliIO, runAdminCli } from "#app/.server/admins/admin-cli.server.ts";
import { announceFirstAdmin, DEMO_ADMIN_EMAIL } from "#app/.server/admins/first-admin.server.ts";
import { removeStaleAccounts } from "#app/.server/auth/accounts.server.ts";
import { t } from "#app/i18n/newsroom.ts";
import { terminal as terminal_ } from "#app/i18n/pt-BR.ts";
import { createAdmin, createMember, createUser, uniqueEmail } from "#tests/factories/auth.ts";
import { countRows, makeDataDir, TEST_DATABASE } from "#tests/factories/services.ts";
import { type TestServices, useTestServices } from "#tests/factories/use-services.ts";

type Services = TestServices;

const open = useTestServices("eef-cli-");

/** A terminal for the command: scripted answers to its questions, what it asked and warned. */
function terminal(options: { interactive?: boolean; answers?: string[]; stdin?: string } = {}) {
  const answers = [...(options.answers ?? [])];
  const asked: Array<{ question: string; hidden: boolean }> = [];
  const warnings: string[] = [];
  const io: CliIO = {
    interactive: options.interactive ?? false,
    ask: async (question) => {
      asked.push({ question, hidden: false });
      return answers.shift() ?? "";
    },
    askHidden: async (question) => {
      asked.push({ question, hidden: true });
      return answers.shift() ?? "";
    },
    readStdinLine: async () => options.stdin ?? "",
    warn: (message) => void warnings.push(message),
  };
  return { io, asked, warnings };
}

const cli = (services: Services, ...argv: string[]) => runAdminCli(argv, services, terminal().io);

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
  it("pede a senha no terminal duas vezes, sem eco; a conta nasce confirmada, administradora e sem sessão", async () => {
    const services = await open();
    const { io, asked, warnings } = terminal({ interactive: true, answers: ["senha-chefe-1", "senha-chefe-1"] });
    const output = await runAdminCli(["create", "--email", "Chefe@Redacao.Example", "--name", "Chefe"], services, io);
    const user = await services.admins.findUser("chefe@redacao.example");
    expect(user).toMatchObject({ email: "chefe@redacao.example", name: "Chefe", emailVerified: true });
    expect(output).toBe(`Administrador criado: chefe@redacao.example (${user!.id}). Entre em /admin/login.`);
    expect(asked.map((question) => question.hidden)).toEqual([true, true]);
    expect(warnings).toEqual([]);
    expect(await services.admins.isAdmin(user!.id)).toBe(true);
    expect(await sessions(services, user!.id)).toBe(0);
    expect((await signIn(services, "chefe@redacao.example", "senha-chefe-1")).ok).toBe(true);
  });

  it("senhas diferentes nas duas perguntas: nada é criado", async () => {
    const services = await open();
    const { io } = terminal({ interactive: true, answers: ["senha-chefe-1", "senha-chefe-2"] });
    expect((await cliError(runAdminCli(["create", "--email", "chefe@redacao.example"], services, io))).message).toBe(
      "As senhas não conferem. Nada foi criado.",
    );
    expect(await services.admins.findUser("chefe@redacao.example")).toBeUndefined();
  });

  it("sem terminal, lê a senha da entrada padrão; --password ainda funciona, com um aviso", async () => {
    const services = await open();
    const piped = terminal({ stdin: "senha-stdin-1" });
    await runAdminCli(["create", "--email", "stdin@redacao.example"], services, piped.io);
    expect(piped.warnings).toEqual([]);
    expect((await signIn(services, "stdin@redacao.example", "senha-stdin-1")).ok).toBe(true);

    const flagged = terminal();
    await runAdminCli(["create", "--email", "flag@redacao.example", "--password", "senha-flag-1"], services, flagged.io);
    expect(flagged.warnings).toHaveLength(1);
    expect(flagged.warnings[0]).toContain("--password");
    expect(flagged.warnings[0]).toContain("ps");
    expect((await signIn(services, "flag@redacao.example", "senha-flag-1")).ok).toBe(true);
  });

  it("uma conta registrada por um estranho com o e-mail da redação (não confirmada) nunca vira administradora", async () => {
    const services = await open();
    const intruder = await createUser(services, { email: "redacao@jornal.example", password: "senha-intruso", verified: false });
    const refusal = await cliError(cli(services, "create", "--email", "redacao@jornal.example", "--password", "senha-dona-1"));
    expect(refusal.message).toContain("nunca foi confirmado");
    expect(refusal.message).toContain("--replace-unverified");
    expect((await cliError(cli(services, "grant", "redacao@jornal.example", "--yes"))).message).toContain("nunca foi confirmado");
    expect((await cliError(cli(services, "grant", intruder.id, "--yes"))).message).toContain("nunca foi confirmado");
    expect(await services.admins.isAdmin(intruder.id)).toBe(false);
    expect(await services.admins.list()).toEqual([]);

    // The operator replaces it: the stranger's account is gone, a new one (verified, admin) takes the address.
    const { io, warnings } = terminal({ stdin: "senha-dona-1" });
    const output = await runAdminCli(["create", "--email", "redacao@jornal.example", "--replace-unverified"], services, io);
    const owner = await services.admins.findUser("redacao@jornal.example");
    expect(owner!.id).not.toBe(intruder.id);
    expect(output).toBe(`Administrador criado: redacao@jornal.example (${owner!.id}). Entre em /admin/login.`);
    expect(warnings.join("\n")).toContain(intruder.id);
    expect(await services.admins.findUser(intruder.id)).toBeUndefined();
    expect(await signIn(services, "redacao@jornal.example", "senha-intruso")).toMatchObject({ ok: false, code: "invalid" });
    expect((await signIn(services, "redacao@jornal.example", "senha-dona-1")).ok).toBe(true);
  });

  it("create para uma conta que já existia nunca dá acesso (nem com --yes): manda um link de nova senha; só depois dele grant dá acesso", async () => {
    const services = await open({ SITE_URL: "http://127.0.0.1:4321" });
    // An outsider registered the newsroom's address first, and its owner clicked the unexpected confirmation mail.
    const user = await createUser(services, { email: "redacao@jornal.example", password: "senha-do-intruso" });
    await (await (await services.betterAuth.get()).$context).internalAdapter.createSession(user.id);
    expect(await sessions(services, user.id)).toBe(1);

    for (const argv of [
      ["create", "--email", user.email.toUpperCase(), "--password", "senha-nova-9"],
      ["create", "--email", user.email, "--yes"],
    ]) {
      const output = await cli(services, ...argv);
      expect(output).toContain(`A conta ${user.email} (${user.id}`);
      expect(output).toContain(`npm run admin -- grant ${user.email}`);
      expect(await services.admins.isAdmin(user.id)).toBe(false);
    }
    // Not before the owner followed the link: grant refuses too, even with --yes.
    expect((await cliError(cli(services, "grant", user.email, "--yes"))).message).toContain("definir uma nova senha");
    expect((await cliError(runAdminCli(["grant", user.id], services, terminal({ interactive: true, answers: ["s"] }).io))).message).toContain(
      "definir uma nova senha",
    );
    expect(await services.admins.isAdmin(user.id)).toBe(false);
    expect((await signIn(services, user.email, "senha-do-intruso")).ok).toBe(false);

    // The owner follows the newest link: the outsider's password and every session are gone.
    const outbox = path.join(services.dataDir, "outbox");
    const files = fs.readdirSync(outbox).sort();
    expect(files).toHaveLength(2);
    const mail = await simpleParser(fs.readFileSync(path.join(outbox, files.at(-1)!)));
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.value[0]?.address : undefined).toBe(user.email);
    // An account that was already there: a new password, in a reset's words (never an invitation's).
    expect(mail.subject).toBe(t.auth.mail.resetSubject(services.config.site.name));
    const token = decodeURIComponent(/reset-password\?token=(\S+)/.exec(mail.text ?? "")![1]!);
    expect(await services.auth.isLiveInvite(token)).toBe(false);
    expect((await services.auth.resetPassword({ token, newPassword: "senha-do-dono-1" })).ok).toBe(true);
    expect(await sessions(services, user.id)).toBe(0);

    // At a terminal, "n" keeps everything as it was; "s" grants.
    const declined = terminal({ interactive: true, answers: ["n"] });
    expect((await cliError(runAdminCli(["grant", user.email], services, declined.io))).message).toBe("Nada foi alterado.");
    expect(declined.asked[0]!.question).toContain(user.email);
    expect(await services.admins.isAdmin(user.id)).toBe(false);
    const accepted = terminal({ interactive: true, answers: ["s"] });
    expect(await runAdminCli(["grant", user.email], services, accepted.io)).toContain(`${user.email} (${user.id}) agora é administrador.`);
    expect(await services.admins.isAdmin(user.id)).toBe(true);
    expect(await signIn(services, user.email, "senha-do-intruso")).toMatchObject({ ok: false, code: "invalid" });
    expect((await signIn(services, user.email, "senha-do-dono-1")).ok).toBe(true);
    expect(await cli(services, "create", "--email", user.email, "--yes")).toBe(`${user.email} (${user.id}) já é administrador.`);

    // Once proven, create --yes grants without a question (the owner set the password).
    const other = await createUser(services);
    await cli(services, "create", "--email", other.email, "--yes");
    const [latest] = fs.readdirSync(outbox).sort().reverse();
    const otherMail = await simpleParser(fs.readFileSync(path.join(outbox, latest!)));
    const otherToken = decodeURIComponent(/reset-password\?token=(\S+)/.exec(otherMail.text ?? "")![1]!);
    expect((await services.auth.resetPassword({ token: otherToken, newPassword: "senha-da-outra-1" })).ok).toBe(true);
    expect(await cli(services, "create", "--email", other.email, "--yes")).toContain(`${other.email} (${other.id}) agora é administrador.`);
  });

  it("--send-link cria a conta sem senha conhecida e manda por e-mail o link para a pessoa definir a dela", async () => {
    const services = await open({ SITE_URL: "http://127.0.0.1:4321" });
    const output = await cli(services, "create", "--email", "nova@redacao.example", "--send-link");
    const user = await services.admins.findUser("nova@redacao.example");
    expect(output).toContain(`Administrador criado: nova@redacao.example (${user!.id}).`);
    expect(output).toContain(path.join(services.dataDir, "outbox"));
    expect(await services.admins.isAdmin(user!.id)).toBe(true);
    const files = fs.readdirSync(path.join(services.dataDir, "outbox"));
    expect(files).toHaveLength(1);
    const mail = await simpleParser(fs.readFileSync(path.join(services.dataDir, "outbox", files[0]!)));
    // Nobody asked for a reset: the mail and the page it opens (an invitation's token) say "crie sua senha".
    expect(mail.subject).toBe(t.auth.mail.newAccountSubject(services.config.site.name));
    expect(mail.text).toContain("crie sua senha por este link (válido por 1 hora, uma única vez)");
    expect(mail.text).toContain("como Administrador");
    expect(mail.text).not.toContain("redefinir");
    const token = decodeURIComponent(/http:\/\/127\.0\.0\.1:4321\/admin\/reset-password\?token=(\S+)/.exec(mail.text ?? "")![1]!);
    expect(await services.auth.isLiveInvite(token)).toBe(true);
    expect((await services.auth.resetPassword({ token, newPassword: "minha-senha-1" })).ok).toBe(true);
    expect(await services.auth.isLiveInvite(token)).toBe(false);
    expect((await signIn(services, "nova@redacao.example", "minha-senha-1")).ok).toBe(true);
    expect((await cliError(cli(services, "create", "--email", "x@redacao.example", "--send-link", "--password", "a"))).message).toContain(
      "--send-link ou --password",
    );
  });

  it("recusa senhas fora da política, com a mensagem em português, e não cria nada", async () => {
    const services = await open({ PASSWORD_REQUIRE_SYMBOL: "1" });
    const short = await cliError(cli(services, "create", "--email", "curta@redacao.example", "--password", "abc"));
    expect(short.message).toBe(`Não foi possível criar a conta: ${t.auth.passwordRules.tooShort(6)}\n${t.auth.passwordRules.symbol}`);
    const noSymbol = await cliError(cli(services, "create", "--email", "curta@redacao.example", "--password", "abcdefgh"));
    expect(noSymbol.message).toBe(`Não foi possível criar a conta: ${t.auth.passwordRules.symbol}`);
    expect(await services.admins.findUser("curta@redacao.example")).toBeUndefined();
    expect(await services.admins.list()).toEqual([]);
  });

  it("entrada inválida: CliError com texto em português", async () => {
    const services = await open();
    const users = await countRows(services, "user");
    expect((await cliError(cli(services, "create", "--password", "senha-boa-1"))).message).toBe(terminal_.adminCli.emailRequired);
    expect(terminal_.adminCli.emailRequired).toMatch(/^Informe um único e-mail válido com --email/);
    // One plain address only (app/lib/email-address.ts, the team invitation's rule): never a name, a group or a list.
    for (const address of [
      "sem-arroba",
      "vitima:evil@evil.test;",
      "Chefe <chefe@redacao.example>",
      "chefe@redacao.example,outro@evil.test",
      "chefe@localhost",
    ]) {
      const refused = await cliError(cli(services, "create", "--email", address, "--password", "senha-boa-1"));
      expect(refused.message, address).toBe(terminal_.adminCli.emailRequired);
    }
    expect(await countRows(services, "user")).toBe(users);
    expect((await cliError(cli(services, "create", "--email", "nova@redacao.example"))).message).toMatch(/^Informe a senha na entrada padrão/);
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
    // Another admin stays, so both may lose their access (the last admin never does: below).
    await createAdmin(services);
    expect(await cli(services, "grant", byId.id, "--yes")).toBe(
      `${byId.email} (${byId.id}) agora é administrador. A senha não foi alterada; 0 sessões encerradas.`,
    );
    expect(await cli(services, "grant", byEmail.email.toUpperCase(), "--yes")).toContain(`${byEmail.email} (${byEmail.id}) agora é administrador.`);
    expect(await cli(services, "grant", byId.id)).toBe(`${byId.email} (${byId.id}) já é administrador.`); // idempotent
    expect(await services.admins.isAdmin(byId.id)).toBe(true);
    expect(await services.admins.isAdmin(byEmail.id)).toBe(true);
    expect(await services.admins.list()).toHaveLength(3);

    expect(await cli(services, "revoke", byEmail.email)).toBe(`${byEmail.email} (${byEmail.id}) não é mais administrador.`);
    expect(await cli(services, "revoke", byId.id)).toBe(`${byId.email} (${byId.id}) não é mais administrador.`);
    expect(await cli(services, "revoke", byId.id)).toBe(`${byId.email} (${byId.id}) já não era administrador.`);
    expect(await services.admins.isAdmin(byId.id)).toBe(false);
    expect(await services.admins.isAdmin(byEmail.id)).toBe(false);
  });

  it("revoke encerra as sessões abertas: a próxima requisição já não tem usuário", async () => {
    const services = await open();
    const admin = await createAdmin(services);
    await createAdmin(services);
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
    // Listed in the order granted (to the millisecond): the second is granted once the clock has passed the first.
    const firstGranted = (await services.admins.list())[0]!.grantedAt;
    await expect.poll(() => new Date().toISOString() > firstGranted, { interval: 1 }).toBe(true);
    const second = await createAdmin(services);
    await createUser(services); // not an admin: not listed
    const lines = (await cli(services, "list")).split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^${first.id}  ${first.email.replace(/[.]/g, "\\.")}  Administrador  desde \\d{4}-\\d{2}-\\d{2}T`));
    expect(lines[1]).toMatch(new RegExp(`^${second.id}  ${second.email.replace(/[.]/g, "\\.")}  Administrador  desde `));
  });

  it("entrada inválida: CliError com texto em português", async () => {
    const services = await open();
    expect((await cliError(cli(services, "grant"))).message).toBe("Uso: npm run admin -- grant <id-ou-email> [--role reporter|editor|admin] [--yes]");
    expect((await cliError(cli(services, "revoke", "a", "b"))).message).toBe("Uso: npm run admin -- revoke <id-ou-email>");
    const missing = uniqueEmail("ninguem");
    expect((await cliError(cli(services, "grant", missing))).message).toBe(`Nenhuma conta encontrada com id ou e-mail "${missing}".`);
    expect((await cliError(cli(services, "revoke", "id-inexistente"))).message).toBe('Nenhuma conta encontrada com id ou e-mail "id-inexistente".');
    for (const argv of [[], ["ajuda"], ["--help"]]) {
      const usage = await cliError(runAdminCli(argv, services));
      expect(usage.message).toMatch(/^Uso:/);
      for (const command of ["create --email", "grant <id-ou-email>", "role <id-ou-email>", "revoke <id-ou-email>", "list"]) {
        expect(usage.message).toContain(`npm run admin -- ${command}`);
      }
    }
  });
});

describe("papéis da redação (--role, role, list)", () => {
  it("create --role reporter cria um repórter (que entra no site); sem --role continua administrador; papel inválido não cria nada", async () => {
    const services = await open();
    const output = await cli(services, "create", "--email", "reporter@redacao.example", "--role", "reporter", "--password", "senha-reporter-1");
    const reporter = await services.admins.findUser("reporter@redacao.example");
    expect(output).toBe(`Repórter criado: reporter@redacao.example (${reporter!.id}). Entre em /admin/login.`);
    expect(await services.admins.roleOf(reporter!.id)).toBe("reporter");
    expect(await services.admins.isAdmin(reporter!.id)).toBe(false);
    // Any role signs in (the newsroom); what it may do is decided per request.
    expect((await signIn(services, "reporter@redacao.example", "senha-reporter-1")).ok).toBe(true);

    await cli(services, "create", "--email", "editora@redacao.example", "--role", "EDITOR", "--password", "senha-editora-1");
    const editor = await services.admins.findUser("editora@redacao.example");
    expect(await services.admins.roleOf(editor!.id)).toBe("editor");

    await cli(services, "create", "--email", "chefe@redacao.example", "--password", "senha-chefe-1");
    expect(await services.admins.roleOf((await services.admins.findUser("chefe@redacao.example"))!.id)).toBe("admin");

    const invalid = await cliError(
      cli(services, "create", "--email", "estagiario@redacao.example", "--role", "estagiario", "--password", "senha-estag-1"),
    );
    expect(invalid.message).toBe('Papel inválido: "estagiario". Use reporter (Repórter), editor (Editor) ou admin (Administrador).');
    expect(await services.admins.findUser("estagiario@redacao.example")).toBeUndefined();
  });

  it("role muda o papel de quem já tem acesso (vale já na próxima requisição); recusa conta sem acesso, papel inválido e uso errado", async () => {
    const services = await open();
    const member = await createMember(services, "reporter");
    const result = await signIn(services, member.email, member.password);
    if (!result.ok) throw new Error("login do repórter falhou");
    const cookie = /eef\.session_token=[^;]+/.exec(result.headers.get("set-cookie")!)![0];
    const viewerRole = async () => (await services.auth.getViewer(new Request("http://localhost/", { headers: { cookie } })))?.role;
    expect(await viewerRole()).toBe("reporter");

    expect(await cli(services, "role", member.email, "editor")).toBe(`${member.email} (${member.id}): papel alterado de Repórter para Editor.`);
    expect(await services.admins.roleOf(member.id)).toBe("editor");
    expect(await viewerRole()).toBe("editor");
    expect(await cli(services, "role", member.id, "editor")).toBe(`${member.email} (${member.id}) já tem o papel Editor. Nada foi alterado.`);
    expect(await cli(services, "role", member.email.toUpperCase(), "admin")).toContain("de Editor para Administrador");
    expect(await services.admins.isAdmin(member.id)).toBe(true);

    // An account with no role is not given one here: access goes through grant/create and their checks.
    const outsider = await createUser(services);
    const noAccess = await cliError(cli(services, "role", outsider.email, "admin"));
    expect(noAccess.message).toContain("não tem acesso à redação");
    expect(noAccess.message).toContain(`npm run admin -- grant ${outsider.email} --role admin`);
    expect(await services.admins.roleOf(outsider.id)).toBeNull();

    expect((await cliError(cli(services, "role", member.email, "chefe"))).message).toContain('Papel inválido: "chefe"');
    expect((await cliError(cli(services, "role", member.email))).message).toBe("Uso: npm run admin -- role <id-ou-email> <reporter|editor|admin>");
    expect((await cliError(cli(services, "role", "ninguem@redacao.example", "editor"))).message).toBe(
      'Nenhuma conta encontrada com id ou e-mail "ninguem@redacao.example".',
    );
  });

  it('publisher dá e tira o direito "publica sem revisão" (o mesmo de /equipe, no registro como linha de comando)', async () => {
    const services = await open();
    const member = await createMember(services, "reporter");
    const right = async () =>
      Number(
        (
          await services.database.db
            .selectFrom("admins")
            .select("publishes_without_review")
            .where("user_id", "=", member.id)
            .executeTakeFirstOrThrow()
        ).publishes_without_review,
      );
    expect(await right()).toBe(0);
    expect(await cli(services, "publisher", member.email, "sim")).toBe(`${member.email} (${member.id}): publica sem revisão.`);
    expect(await right()).toBe(1);
    expect((await services.team.members()).find((m) => m.userId === member.id)?.publishesWithoutReview).toBe(true);
    expect(await cli(services, "publisher", member.id, "sim")).toContain("já publicava sem revisão. Nada foi alterado.");
    expect(await cli(services, "publisher", member.email, "nao")).toContain("não publica mais sem revisão");
    expect(await right()).toBe(0);
    expect((await services.team.changes()).slice(0, 2).map((change) => [change.action, change.actor])).toEqual([
      ["publishes_off", null],
      ["publishes_on", null],
    ]);

    const outsider = await createUser(services);
    expect((await cliError(cli(services, "publisher", outsider.email, "sim"))).message).toContain("não tem acesso à redação");
    expect((await cliError(cli(services, "publisher", member.email, "talvez"))).message).toBe(terminal_.adminCli.publisherUsage);
    expect((await cliError(cli(services, "publisher", member.email))).message).toBe(terminal_.adminCli.publisherUsage);
  });

  it("create --role para uma conta que já existia continua sem dar acesso sem a prova do dono; grant --role dá o papel pedido", async () => {
    const services = await open({ SITE_URL: "http://127.0.0.1:4321" });
    const user = await createUser(services, { email: "reporter@jornal.example", password: "senha-do-intruso" });
    const output = await cli(services, "create", "--email", "reporter@jornal.example", "--role", "reporter", "--yes");
    expect(output).toContain("ainda não recebeu acesso");
    expect(await services.admins.roleOf(user.id)).toBeNull();
    // An account whose owner proved the address (here: created verified by the operator's own means) gets the role asked.
    const other = await createUser(services);
    expect(await cli(services, "grant", other.email, "--role", "editor", "--yes")).toBe(
      `${other.email} (${other.id}) agora é editor. A senha não foi alterada; 0 sessões encerradas.`,
    );
    expect(await services.admins.roleOf(other.id)).toBe("editor");
    // Already a member: create/grant never change the role (that is `role`).
    expect(await cli(services, "grant", other.email, "--role", "admin", "--yes")).toBe(
      `${other.email} (${other.id}) já tem acesso, com o papel Editor. Para mudar o papel: npm run admin -- role ${other.email} admin`,
    );
    expect(await services.admins.roleOf(other.id)).toBe("editor");
  });

  it("list mostra o papel de cada conta; revoke tira qualquer papel", async () => {
    const services = await open();
    const admin = await createAdmin(services);
    const reporter = await createMember(services, "reporter");
    const editor = await createMember(services, "editor");
    const lines = (await cli(services, "list")).split("\n");
    expect(lines).toHaveLength(3);
    expect(lines.find((line) => line.startsWith(admin.id))).toContain(`${admin.email}  Administrador  desde `);
    expect(lines.find((line) => line.startsWith(reporter.id))).toContain(`${reporter.email}  Repórter  desde `);
    expect(lines.find((line) => line.startsWith(editor.id))).toContain(`${editor.email}  Editor  desde `);
    expect(await cli(services, "revoke", reporter.email)).toBe(`${reporter.email} (${reporter.id}) não é mais repórter.`);
    expect(await services.admins.roleOf(reporter.id)).toBeNull();
    expect((await cli(services, "list")).split("\n")).toHaveLength(2);
  });
});

describe("o último administrador (a mesma regra de /equipe)", () => {
  it("role e revoke recusam rebaixar ou revogar o último administrador, e nada muda nem entra no registro", async () => {
    const services = await open();
    const only = await createAdmin(services);
    const editor = await createMember(services, "editor");
    const changesBefore = await countRows(services, "member_changes");
    for (const argv of [
      ["role", only.email, "editor"],
      ["role", only.id, "reporter"],
      ["revoke", only.email],
    ]) {
      expect((await cliError(cli(services, ...argv))).message).toBe(terminal_.adminCli.lastAdmin(only.email));
    }
    expect(await services.admins.roleOf(only.id)).toBe("admin");
    expect(await countRows(services, "member_changes")).toBe(changesBefore);
    // Other members are not held by it: an editor may still be revoked.
    expect(await cli(services, "revoke", editor.email)).toContain(editor.email);

    // With a second admin, the first may be demoted; then the second is the last one.
    const second = await createAdmin(services);
    expect(await cli(services, "role", only.email, "editor")).toBe(`${only.email} (${only.id}): papel alterado de Administrador para Editor.`);
    expect(await services.admins.roleOf(only.id)).toBe("editor");
    expect((await cliError(cli(services, "revoke", second.id))).message).toBe(terminal_.adminCli.lastAdmin(second.email));
    expect(await services.admins.roleOf(second.id)).toBe("admin");
  });

  it("/equipe usa a mesma regra: o último administrador não é rebaixado por outro administrador que acabou de perder o papel", async () => {
    const services = await open();
    const first = await createAdmin(services);
    const second = await createAdmin(services);
    const actor = { userId: second.id, email: second.email };
    // The command line demotes the second; the team page then refuses the second's demotion of the first.
    await cli(services, "role", second.email, "editor");
    const result = await services.team.changeRole(actor, first.id, "editor");
    expect(result).toEqual({ ok: false, message: t.team.lastAdmin, status: 409 });
    expect(await services.admins.roleOf(first.id)).toBe("admin");
  });
});

// The script on DATA_DIR's SQLite file (no DATABASE_URL), in either pass: the PostgreSQL pass would run the very same
// thing again. The command on PostgreSQL: commands-exit.test.ts ("admin create, list and a refused grant").
describe.skipIf(TEST_DATABASE === "postgres")("o script scripts/admin.ts", () => {
  const run = (dataDir: string, args: string[], input = "") =>
    spawnSync(process.execPath, [path.resolve("scripts/admin.ts"), ...args], {
      env: { ...process.env, DATA_DIR: dataDir, SEED_DEMO: "0", LOG_LEVEL: "warn", NODE_ENV: "production" },
      encoding: "utf8",
      input,
      timeout: 60_000,
    });

  it("cria e lista um administrador; erro de uso sai com código 1 e mensagem em português, sem stack trace", () => {
    const dataDir = makeDataDir("eef-cli-script-");
    try {
      // The password comes on standard input (no TTY), never on the command line.
      const created = run(dataDir, ["create", "--email", "script@redacao.example"], "senha-script-1\n");
      expect(created.stderr).toBe("");
      expect(created.status).toBe(0);
      expect(created.stdout).toMatch(/^Administrador criado: script@redacao\.example \(/);
      const flagged = run(dataDir, ["create", "--email", "flag@redacao.example", "--password", "senha-flag-1"]);
      expect(flagged.status).toBe(0);
      expect(flagged.stderr).toContain("--password");
      const listed = run(dataDir, ["list"]);
      expect(listed.status).toBe(0);
      expect(listed.stdout).toContain("script@redacao.example");
      const bad = run(dataDir, ["grant", "ninguem@redacao.example"]);
      expect(bad.status).toBe(1);
      expect(bad.stderr.trim()).toBe('Nenhuma conta encontrada com id ou e-mail "ninguem@redacao.example".');
      expect(bad.stdout).toBe("");
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe("accounts never made admins are removed after STALE_ACCOUNT_DAYS", () => {
  it("removes old never-granted accounts (with their sessions), keeps admins and recent accounts", async () => {
    const services = await open();
    const oldUser = await createUser(services, { verified: false });
    const admin = await createAdmin(services);
    const recent = await createUser(services);
    await (await (await services.betterAuth.get()).$context).internalAdapter.createSession(oldUser.id);
    // Make the first two look 40 days old.
    const old = new Date(Date.now() - 40 * 86_400_000);
    const when = services.database.dialect === "postgres" ? old : old.toISOString();
    await services.database.db
      .updateTable("user")
      .set({ createdAt: when as never })
      .where("id", "in", [oldUser.id, admin.id])
      .execute();
    const removed = await removeStaleAccounts(services.betterAuth, services.database.db, new Date(Date.now() - 30 * 86_400_000));
    expect(removed).toBe(1);
    expect(await services.admins.findUser(oldUser.id)).toBeUndefined();
    expect(await sessions(services, oldUser.id)).toBe(0);
    expect(await services.admins.findUser(admin.id)).toBeDefined();
    expect(await services.admins.findUser(recent.id)).toBeDefined();
    expect(services.config.auth.staleAccountMs).toBe(30 * 86_400_000);
  });
});

describe("the first start on an installation without admins (announceFirstAdmin)", () => {
  async function announce(services: Services): Promise<string> {
    const printed: string[] = [];
    const spy = vi.spyOn(console, "log").mockImplementation((...parts: unknown[]) => void printed.push(parts.join(" ")));
    try {
      await announceFirstAdmin(services);
    } finally {
      spy.mockRestore();
    }
    return printed.join("\n");
  }

  const users = (services: Services) => countRows(services, "user");

  it("in production never creates an account: it prints the command that creates one (which asks for the password)", async () => {
    const services = await open({ NODE_ENV: "production" });
    expect(services.config.demoAdmin).toBe(false);
    const printed = await announce(services);
    expect(printed).toContain("npm run admin -- create --email");
    expect(printed).not.toContain("senha:");
    expect(await users(services)).toBe(0);
    expect(await services.admins.list()).toEqual([]);
  });

  it("with DEMO_ADMIN creates one verified demo admin whose printed password signs in, once", async () => {
    const services = await open({ DEMO_ADMIN: "1" });
    const printed = await announce(services);
    const password = /senha:\s+(\S+)/.exec(printed)?.[1];
    expect(password).toBeTruthy();
    const user = await services.admins.findUser(DEMO_ADMIN_EMAIL);
    expect(user).toMatchObject({ emailVerified: true });
    expect(await services.admins.isAdmin(user!.id)).toBe(true);
    expect((await signIn(services, DEMO_ADMIN_EMAIL, password!)).ok).toBe(true);
    // A second start: nothing new, nothing printed (the password is never shown again).
    expect(await announce(services)).toBe("");
    expect(await users(services)).toBe(1);
  });

  it("says nothing once an admin exists, even with DEMO_ADMIN", async () => {
    const services = await open({ DEMO_ADMIN: "1" });
    await createAdmin(services);
    expect(await announce(services)).toBe("");
    expect(await services.admins.findUser(DEMO_ADMIN_EMAIL)).toBeUndefined();
  });
});
