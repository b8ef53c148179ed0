import fs from "node:fs";
import path from "node:path";
import { simpleParser } from "mailparser";
import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { servicesContext } from "#app/.server/context.server.ts";
import { removeStaleAccounts } from "#app/.server/auth/accounts.server.ts";
import { runAdminCli } from "#app/.server/admins/admin-cli.server.ts";
import { t } from "#app/i18n/newsroom.ts";
import { INVITE_RATE_MAX, INVITE_TTL_SECONDS } from "#app/lib/limits.ts";
import { action as teamAction, loader as teamLoader } from "#app/routes/admin/team.tsx";
import { createAdmin, createMember, createUser, uniqueEmail } from "#tests/factories/auth.ts";
import { type TestServices, useTestServices } from "#tests/factories/use-services.ts";

const open = useTestServices("eef-team-");

let ip = 0;
const signIn = (services: TestServices, email: string, password: string) =>
  services.auth.signInWithPassword({ email, password, ip: `10.11.0.${++ip}`, headers: new Headers() });

const sessions = async (services: TestServices, userId: string) =>
  (await services.database.db.selectFrom("session").select("id").where("userId", "=", userId).execute()).length;

const actorOf = (account: { id: string; email: string }) => ({ userId: account.id, email: account.email });

/** The newest mail in the outbox for `to`: its subject and the set-password token of its link. */
async function latestMail(services: TestServices, to: string) {
  const outbox = path.join(services.dataDir, "outbox");
  for (const file of fs.readdirSync(outbox).sort().reverse()) {
    const mail = await simpleParser(fs.readFileSync(path.join(outbox, file)));
    const address = mail.to && !Array.isArray(mail.to) ? mail.to.value[0]?.address : undefined;
    if (address !== to) continue;
    // The link: ?token=convite-… and nothing else (the token tells the page it is an invitation).
    const match = /reset-password\?token=(convite-[^&\s]+)(?:\s|$)/.exec(mail.text ?? "");
    return { subject: mail.subject ?? "", text: mail.text ?? "", token: match ? decodeURIComponent(match[1]!) : null };
  }
  throw new Error(`no mail to ${to}`);
}

const mailCount = (services: TestServices) => {
  const outbox = path.join(services.dataDir, "outbox");
  return fs.existsSync(outbox) ? fs.readdirSync(outbox).length : 0;
};

describe("convites da equipe", () => {
  it("cria o acesso e manda o link; o papel vale quando a senha é definida, e o link serve uma vez só", async () => {
    const services = await open();
    const admin = await createAdmin(services);
    const email = uniqueEmail("convidado");
    const result = await services.team.invite(actorOf(admin), email, "reporter");
    expect(result).toEqual({ ok: true, message: t.team.invited(email, "Repórter") });

    const user = await services.admins.findUser(email);
    expect(user?.emailVerified).toBe(true);
    // Nobody has the role yet: the link has not been followed.
    expect(await services.admins.roleOf(user!.id)).toBeNull();
    expect((await services.team.invites()).map((invite) => [invite.email, invite.role, invite.expired])).toEqual([[email, "reporter", false]]);

    const mail = await latestMail(services, email);
    expect(mail.subject).toBe(t.team.mail.subject(services.config.site.name));
    expect(mail.text).toContain(admin.email);
    expect(mail.text).toContain("72 horas");
    expect(mail.token).toBeTruthy();
    // The reset page's words: an invitation's while its token is live; a token of another shape never is one.
    expect(await services.auth.isLiveInvite(mail.token!)).toBe(true);
    expect(await services.auth.isLiveInvite(mail.token!.replace(/^convite-/, ""))).toBe(false);
    expect(await services.auth.isLiveInvite(`${mail.token!}x`)).toBe(false);

    expect((await services.auth.resetPassword({ token: mail.token!, newPassword: "senha-do-convidado-1" })).ok).toBe(true);
    expect(await services.auth.isLiveInvite(mail.token!)).toBe(false);
    expect(await services.admins.roleOf(user!.id)).toBe("reporter");
    expect(await services.team.invites()).toEqual([]);
    expect((await signIn(services, email, "senha-do-convidado-1")).ok).toBe(true);

    // Single use: the same link again is refused and the password stays.
    const again = await services.auth.resetPassword({ token: mail.token!, newPassword: "outra-senha-qualquer-1" });
    expect(again).toMatchObject({ ok: false, code: "invalid" });
    expect((await signIn(services, email, "senha-do-convidado-1")).ok).toBe(true);

    const log = await services.team.changes();
    expect(log.map((change) => [change.action, change.actor, change.target, change.toRole])).toEqual([
      ["accept", email, email, "reporter"],
      ["invite", admin.email, email, "reporter"],
    ]);
  });

  it("o link expira em 72 horas: depois dele, nem senha nem papel", async () => {
    const services = await open();
    const admin = await createAdmin(services);
    const email = uniqueEmail("atrasado");
    await services.team.invite(actorOf(admin), email, "editor");
    const { token } = await latestMail(services, email);
    const user = await services.admins.findUser(email);
    // The token's and the invitation's expiry, moved to just past: as if 72 h had gone by.
    const past = new Date(Date.now() - 1000);
    await services.database.db.updateTable("member_invites").set({ expires_at: past.toISOString() }).execute();
    const context = await (await services.betterAuth.get()).$context;
    const verification = await context.internalAdapter.findVerificationValue(`reset-password:${token}`);
    expect(new Date(verification!.expiresAt).getTime() - Date.now()).toBeGreaterThan((INVITE_TTL_SECONDS - 120) * 1000);
    await services.database.db
      .updateTable("verification" as never)
      .set({ expiresAt: services.database.dialect === "postgres" ? past : past.toISOString() } as never)
      .where("id" as never, "=", verification!.id as never)
      .execute();

    expect(await services.auth.isLiveInvite(token!)).toBe(false);
    expect((await services.auth.resetPassword({ token: token!, newPassword: "senha-tardia-1" })).ok).toBe(false);
    expect(await services.admins.roleOf(user!.id)).toBeNull();
    expect((await services.team.invites())[0]?.expired).toBe(true);
  });

  it("um endereço que já tem conta não é entregue: só quem definir a senha pelo link recebe o papel", async () => {
    const services = await open();
    const admin = await createAdmin(services);
    // Someone registered the address first, knows its password and holds a session.
    const squatter = await createUser(services, { password: "senha-do-intruso-1" });
    await (await (await services.betterAuth.get()).$context).internalAdapter.createSession(squatter.id);
    expect(await sessions(services, squatter.id)).toBe(1);

    expect((await services.team.invite(actorOf(admin), squatter.email, "editor")).ok).toBe(true);
    // The invitation alone gives nothing: the account that exists still has no role.
    expect(await services.admins.roleOf(squatter.id)).toBeNull();

    const { token } = await latestMail(services, squatter.email);
    expect((await services.auth.resetPassword({ token: token!, newPassword: "senha-do-dono-1" })).ok).toBe(true);
    expect(await sessions(services, squatter.id)).toBe(0);
    expect(await services.admins.roleOf(squatter.id)).toBe("editor");
    expect((await signIn(services, squatter.email, "senha-do-intruso-1")).ok).toBe(false);
    expect((await signIn(services, squatter.email, "senha-do-dono-1")).ok).toBe(true);
  });

  it("quem já é da equipe não é convidado de novo; e-mail e papel inválidos são recusados", async () => {
    const services = await open();
    const admin = await createAdmin(services);
    const editor = await createMember(services, "editor");
    const before = mailCount(services);
    expect(await services.team.invite(actorOf(admin), editor.email.toUpperCase(), "reporter")).toMatchObject({
      ok: false,
      status: 409,
      message: t.team.alreadyMember(editor.email, "Editor"),
    });
    expect(await services.team.invite(actorOf(admin), "sem-arroba", "reporter")).toMatchObject({ ok: false, message: t.team.invalidEmail });
    expect(mailCount(services)).toBe(before);
  });

  it("o convite aceita um único endereço simples: nome, grupo, lista ou dois-pontos são recusados pela página, sem conta nem e-mail", async () => {
    const services = await open();
    const admin = await createAdmin(services);
    const context = new RouterContextProvider();
    context.set(servicesContext, services);
    const signedIn = await signIn(services, admin.email, admin.password);
    if (!signedIn.ok) throw new Error(signedIn.message);
    const cookie = /eef\.session_token=[^;]+/.exec(signedIn.headers.get("set-cookie") ?? "")![0];
    const invite = (email: string) =>
      teamAction({
        request: new Request("http://127.0.0.1:4321/equipe", {
          method: "POST",
          body: new URLSearchParams({ intent: "invite", email, role: "reporter" }),
          headers: { cookie },
        }),
        context,
        params: {},
      } as never) as Promise<{ data: { error?: string; done?: string } }>;
    const usersBefore = (await services.database.db.selectFrom("user").select("id").execute()).length;
    const before = mailCount(services);
    const refused = [
      "vitima:evil@evil.test;",
      "equipe: vitima@evil.test;",
      "Vítima <vitima@evil.test>",
      "<vitima@evil.test>",
      "vitima@evil.test, outro@evil.test",
      "vitima@evil.test;outro@evil.test",
      "vitima@evil.test outro@evil.test",
      '"vitima@evil.test"@evil.test',
      "vitima@evil.test\nBcc: outro@evil.test",
      "vitima@localhost",
      "vitima@[127.0.0.1]",
      "vitima(comentário)@evil.test",
      ".vitima@evil.test",
      "vi..tima@evil.test",
      "vitima@-evil.test",
      `${"a".repeat(65)}@evil.test`,
    ];
    for (const address of refused) {
      expect((await invite(address)).data.error, address).toBe(t.team.invalidEmail);
      expect(await services.team.invite(actorOf(admin), address, "reporter"), address).toMatchObject({ ok: false, message: t.team.invalidEmail });
    }
    expect((await services.database.db.selectFrom("user").select("id").execute()).length).toBe(usersBefore);
    expect(await services.team.invites()).toEqual([]);
    expect(mailCount(services)).toBe(before);

    // A plain address (spaces around and capitals are not part of it) is invited, and mailed to that one address only.
    const plain = `O'Neil+Futebol.${Date.now()}@Redacao-Esportes.Example.COM`;
    const stored = plain.toLowerCase();
    expect((await invite(`  ${plain} `)).data.done).toBe(t.team.invited(stored, t.roles.names.reporter));
    expect((await services.team.invites()).map((each) => each.email)).toEqual([stored]);
    expect(mailCount(services)).toBe(before + 1);
    expect((await latestMail(services, stored)).token).toBeTruthy();
  });

  it("convite pendente não some na limpeza de contas antigas; cancelado, o link não dá papel", async () => {
    const services = await open();
    const admin = await createAdmin(services);
    const email = uniqueEmail("pendente");
    await services.team.invite(actorOf(admin), email, "reporter");
    const user = await services.admins.findUser(email);
    expect(await removeStaleAccounts(services.betterAuth, services.database.db, new Date(Date.now() + 60_000))).toBe(0);
    expect(await services.admins.findUser(email)).toBeDefined();

    // Once expired, the invitation and its account go with the next cleanup.
    const other = uniqueEmail("vencido");
    await services.team.invite(actorOf(admin), other, "editor");
    const expiredUser = await services.admins.findUser(other);
    await services.database.db
      .updateTable("member_invites")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("user_id", "=", expiredUser!.id)
      .execute();
    expect(await removeStaleAccounts(services.betterAuth, services.database.db, new Date(Date.now() + 60_000))).toBe(1);
    expect(await services.admins.findUser(other)).toBeUndefined();
    expect((await services.team.invites()).map((invite) => invite.email)).toEqual([email]);
    expect(await services.database.db.selectFrom("member_invites").select("user_id").execute()).toHaveLength(1);

    expect((await services.team.cancelInvite(actorOf(admin), user!.id)).ok).toBe(true);
    const { token } = await latestMail(services, email);
    expect((await services.auth.resetPassword({ token: token!, newPassword: "senha-cancelada-1" })).ok).toBe(true);
    expect(await services.admins.roleOf(user!.id)).toBeNull();
  });
});

describe("papéis e revogação na equipe", () => {
  it("muda o papel e registra quem mudou", async () => {
    const services = await open();
    const admin = await createAdmin(services);
    const reporter = await createMember(services, "reporter");
    expect(await services.team.changeRole(actorOf(admin), reporter.id, "editor")).toEqual({
      ok: true,
      message: t.team.roleChanged("Repórter", "Editor"),
    });
    expect(await services.admins.roleOf(reporter.id)).toBe("editor");
    const [change] = await services.team.changes();
    expect(change).toMatchObject({ action: "role", actor: admin.email, target: reporter.email, fromRole: "reporter", toRole: "editor" });
    const members = await services.team.members();
    expect(members.map((member) => [member.email, member.role, member.twoFactor])).toEqual([
      [admin.email, "admin", false],
      [reporter.email, "editor", false],
    ]);
  });

  it("revogar tira o papel e encerra as sessões da pessoa", async () => {
    const services = await open();
    const admin = await createAdmin(services);
    const editor = await createMember(services, "editor");
    expect((await signIn(services, editor.email, editor.password)).ok).toBe(true);
    expect(await sessions(services, editor.id)).toBe(1);
    expect((await services.team.members()).find((member) => member.userId === editor.id)?.lastSignIn).toBeTruthy();

    expect(await services.team.revoke(actorOf(admin), editor.id)).toEqual({ ok: true, message: t.team.revoked });
    expect(await services.admins.roleOf(editor.id)).toBeNull();
    expect(await sessions(services, editor.id)).toBe(0);
    expect((await services.team.changes())[0]).toMatchObject({ action: "revoke", actor: admin.email, target: editor.email, fromRole: "editor" });
  });

  it("ninguém muda o próprio papel nem revoga o próprio acesso; o último administrador fica", async () => {
    const services = await open();
    const admin = await createAdmin(services);
    const other = await createAdmin(services);
    expect(await services.team.changeRole(actorOf(admin), admin.id, "editor")).toMatchObject({ ok: false, message: t.team.notYourself });
    expect(await services.team.revoke(actorOf(admin), admin.id)).toMatchObject({ ok: false, message: t.team.notYourself });

    // Two admins: one may demote the other; then the one left is the last.
    expect((await services.team.changeRole(actorOf(admin), other.id, "reporter")).ok).toBe(true);
    // The remaining admin, seen by someone else acting (a row changed by hand, say): still refused.
    expect(await services.team.changeRole(actorOf(other), admin.id, "editor")).toMatchObject({ ok: false, status: 409, message: t.team.lastAdmin });
    expect(await services.team.revoke(actorOf(other), admin.id)).toMatchObject({ ok: false, status: 409, message: t.team.lastAdmin });
    expect(await services.admins.roleOf(admin.id)).toBe("admin");
    expect((await services.team.changes()).map((change) => change.action)).toEqual(["role"]);
  });

  it("a página /equipe recusa quem não é administrador com 403, no loader e na ação", async () => {
    const services = await open();
    const admin = await createAdmin(services);
    const context = new RouterContextProvider();
    context.set(servicesContext, services);
    const cookieOf = async (account: { email: string; password: string }) => {
      const result = await signIn(services, account.email, account.password);
      if (!result.ok) throw new Error(result.message);
      return /eef\.session_token=[^;]+/.exec(result.headers.get("set-cookie") ?? "")![0];
    };
    const target = await createMember(services, "reporter");
    for (const role of ["reporter", "editor"] as const) {
      const cookie = await cookieOf(await createMember(services, role));
      const get = new Request("http://127.0.0.1:4321/equipe", { headers: { cookie } });
      const loaded = await teamLoader({ request: get, context, params: {} } as never).catch((thrown: unknown) => thrown);
      expect(loaded).toMatchObject({ init: { status: 403 }, data: { code: "role_forbidden" } });
      const body = new URLSearchParams({ intent: "revoke", userId: target.id, confirmed: "1" });
      const post = new Request("http://127.0.0.1:4321/equipe", { method: "POST", body, headers: { cookie } });
      const acted = await teamAction({ request: post, context, params: {} } as never).catch((thrown: unknown) => thrown);
      expect(acted).toMatchObject({ init: { status: 403 } });
      expect(await services.admins.roleOf(target.id)).toBe("reporter");
    }
    // The admin: the page loads, and the action revokes (without `confirmed`, it only asks).
    const cookie = await cookieOf(admin);
    const loaded = (await teamLoader({
      request: new Request("http://127.0.0.1:4321/equipe", { headers: { cookie } }),
      context,
      params: {},
    } as never)) as {
      members: unknown[];
    };
    expect(loaded.members.length).toBeGreaterThanOrEqual(4);
    const ask = new Request("http://127.0.0.1:4321/equipe", {
      method: "POST",
      body: new URLSearchParams({ intent: "revoke", userId: target.id }),
      headers: { cookie },
    });
    const asked = (await teamAction({ request: ask, context, params: {} } as never)) as { data: { confirmRevoke?: { who: string } } };
    expect(asked.data.confirmRevoke?.who).toBe(target.email);
    expect(await services.admins.roleOf(target.id)).toBe("reporter");
    const body = new URLSearchParams({ intent: "revoke", userId: target.id, confirmed: "1" });
    const done = (await teamAction({
      request: new Request("http://127.0.0.1:4321/equipe", { method: "POST", body, headers: { cookie } }),
      context,
      params: {},
    } as never)) as {
      data: { done?: string };
    };
    expect(done.data.done).toBe(t.team.revoked);
    expect(await services.admins.roleOf(target.id)).toBeNull();
  });

  it("o que a linha de comando muda entra no mesmo registro, sem pessoa (a linha de comando)", async () => {
    const services = await open();
    const email = uniqueEmail("cli");
    await runAdminCli(["create", "--email", email, "--role", "reporter", "--password", "senha-da-cli-1"], services, {
      interactive: false,
      ask: () => Promise.reject(new Error("sem terminal")),
      askHidden: () => Promise.reject(new Error("sem terminal")),
      readStdinLine: () => Promise.resolve(""),
      warn: () => undefined,
    });
    await runAdminCli(["role", email, "editor"], services);
    await runAdminCli(["revoke", email], services);
    const log = await services.team.changes();
    expect(log.map((change) => [change.action, change.actor, change.target, change.fromRole, change.toRole])).toEqual([
      ["revoke", null, email, "editor", null],
      ["role", null, email, "reporter", "editor"],
      ["grant", null, email, null, "reporter"],
    ]);
  });
});

describe("limite de convites", () => {
  it(`cada administrador envia até ${INVITE_RATE_MAX} convites por hora pela página; o seguinte é 429, sem conta nem e-mail`, async () => {
    const services = await open();
    const context = new RouterContextProvider();
    context.set(servicesContext, services);
    const cookieOf = async (account: { email: string; password: string }) => {
      const result = await signIn(services, account.email, account.password);
      if (!result.ok) throw new Error(result.message);
      return /eef\.session_token=[^;]+/.exec(result.headers.get("set-cookie") ?? "")![0];
    };
    const invite = (cookie: string, email: string) =>
      teamAction({
        request: new Request("http://127.0.0.1:4321/equipe", {
          method: "POST",
          body: new URLSearchParams({ intent: "invite", email, role: "reporter" }),
          headers: { cookie },
        }),
        context,
        params: {},
      } as never) as Promise<{ init: { status?: number; headers?: Record<string, string> } | null; data: { error?: string; done?: string } }>;
    const first = await cookieOf(await createAdmin(services));
    const second = await cookieOf(await createAdmin(services));
    // Every attempt counts, refused ones too (an address that is not one).
    for (let i = 0; i < INVITE_RATE_MAX; i++) expect((await invite(first, `nao-e-email-${i}`)).data.error).toBe(t.team.invalidEmail);
    const email = uniqueEmail("convidada");
    const limited = await invite(first, email);
    expect(limited.init?.status).toBe(429);
    expect(limited.data.error).toBe(t.team.inviteRateLimited(60));
    expect(Number(limited.init?.headers?.["Retry-After"])).toBeGreaterThan(0);
    expect(await services.admins.findUser(email)).toBeUndefined();
    expect(await services.team.invites()).toEqual([]);
    // Another admin is not held by the first one's count.
    expect((await invite(second, email)).data.done).toBe(t.team.invited(email, t.roles.names.reporter));
  });
});
