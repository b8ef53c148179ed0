import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { simpleParser } from "mailparser";
import { describe, expect, it, vi } from "vitest";
import { createAuthService } from "#app/.server/auth/auth.service.server.ts";
import { createMemoryRateLimiter } from "#app/.server/auth/rate-limiter.server.ts";
import { t } from "#app/i18n/newsroom.ts";
import { RESET_MAIL_INTERVAL_SECONDS } from "#app/lib/limits.ts";
import { createAdmin, createUser, uniqueEmail } from "#tests/factories/auth.ts";
import { type TestServices, useTestServices } from "#tests/factories/use-services.ts";

type Services = TestServices;

const open = useTestServices("eef-auth-", { SITE_URL: "http://127.0.0.1:4321" });

const sessionCount = async (services: Services, userId?: string) => {
  let query = services.database.db.selectFrom("session").select((eb) => eb.fn.countAll<number>().as("n"));
  if (userId) query = query.where("userId", "=", userId);
  return Number((await query.executeTakeFirstOrThrow()).n);
};

let ipCounter = 0;
/** Each call its own client IP, so the per-IP limit never interferes unless a test wants it to. */
const freshIp = () => `10.0.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

function signIn(services: Services, email: string, password: string, ip = freshIp()) {
  return services.auth.signInWithPassword({ email, password, ip, headers: new Headers() });
}

describe("signInWithPassword: só administradores ficam com sessão", () => {
  it("administrador: ok, com o cookie de sessão (HttpOnly, SameSite=Lax) e uma sessão no banco", async () => {
    const services = await open();
    const admin = await createAdmin(services);
    const result = await signIn(services, admin.email, admin.password);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const cookie = result.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/(?:^|,\s*)eef\.session_token=[^;]+/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//i);
    expect(await sessionCount(services, admin.id)).toBe(1);

    // The cookie is a working session, and the viewer is an admin.
    const token = /eef\.session_token=([^;]+)/.exec(cookie)![1]!;
    const viewer = await services.auth.getViewer(new Request("http://127.0.0.1:4321/", { headers: { cookie: `eef.session_token=${token}` } }));
    expect(viewer).toEqual({ userId: admin.id, email: admin.email, role: "admin", isAdmin: true, twoFactorEnabled: false });
  });

  it("o e-mail não diferencia maiúsculas", async () => {
    const services = await open();
    const admin = await createAdmin(services);
    const result = await signIn(services, admin.email.toUpperCase(), admin.password);
    expect(result.ok).toBe(true);
  });

  it("não administrador: not_admin com o uid, e nenhuma sessão fica no banco", async () => {
    const services = await open();
    const user = await createUser(services);
    const result = await signIn(services, user.email, user.password);
    expect(result).toEqual({ ok: false, code: "not_admin", message: t.auth.notAdmin, uid: user.id, status: 403 });
    expect(t.auth.notAdmin).toBe("Usuário não autorizado. Apenas administradores podem fazer login.");
    expect(await sessionCount(services)).toBe(0);
  });

  it("senha errada e conta desconhecida: a mesma mensagem, sem sessão", async () => {
    const services = await open();
    const admin = await createAdmin(services);
    const wrong = await signIn(services, admin.email, "senha-errada");
    const unknown = await signIn(services, uniqueEmail("ninguem"), "qualquer-senha");
    for (const result of [wrong, unknown]) {
      expect(result).toEqual({ ok: false, code: "invalid", message: "Falha na autenticação com email e senha.", status: 401 });
    }
    expect(await sessionCount(services)).toBe(0);
  });

  it("se a verificação de admin falhar (tabela admins ausente), conta como não administrador", async () => {
    const services = await open();
    const admin = await createAdmin(services);
    await sql`DROP TABLE admins`.execute(services.database.db);
    const result = await signIn(services, admin.email, admin.password);
    expect(result).toMatchObject({ ok: false, code: "not_admin", uid: admin.id, message: t.auth.notAdmin });
    expect(await sessionCount(services)).toBe(0);
    expect(await services.admins.isAdmin(admin.id)).toBe(false);
  });

  it("uma sessão aberta deixa de ser de administrador quando o acesso é retirado", async () => {
    const services = await open();
    const admin = await createAdmin(services);
    const result = await signIn(services, admin.email, admin.password);
    if (!result.ok) throw new Error("login do admin falhou");
    const cookie = /eef\.session_token=[^;]+/.exec(result.headers.get("set-cookie")!)![0];
    const request = () => new Request("http://127.0.0.1:4321/", { headers: { cookie } });
    expect((await services.auth.getViewer(request()))?.isAdmin).toBe(true);
    // Only the admins row goes: the session stays, but it is no longer an admin's.
    await services.database.db.deleteFrom("admins").where("user_id", "=", admin.id).execute();
    expect(await services.auth.getViewer(request())).toEqual({
      userId: admin.id,
      email: admin.email,
      role: null,
      isAdmin: false,
      twoFactorEnabled: false,
    });
  });
});

describe("limite de tentativas de login", () => {
  it("quem erra a senha de uma conta espera cada vez mais, com Retry-After; a senha certa de outro lugar continua entrando", async () => {
    const services = await open({ LOGIN_RATE_LIMIT: "4" });
    const admin = await createAdmin(services);
    const attacker = "203.0.113.9";
    // Half the limit (2) in a minute from one place…
    for (let attempt = 1; attempt <= 2; attempt++) {
      expect(await signIn(services, admin.email, "senha-errada", attacker), `tentativa ${attempt}`).toMatchObject({ code: "invalid" });
    }
    const blocked = await signIn(services, admin.email, admin.password, attacker);
    expect(blocked).toMatchObject({ ok: false, code: "rate_limited", status: 429, message: t.auth.rateLimited(1) });
    expect(blocked.ok ? 0 : blocked.retryAfterSeconds).toBeGreaterThan(50);
    expect(blocked.ok ? 0 : blocked.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(await sessionCount(services)).toBe(0);
    // …but the admin, from the newsroom, is not locked out by it.
    expect((await signIn(services, admin.email, admin.password, "198.51.100.20")).ok).toBe(true);
    expect(t.auth.rateLimited(15)).toBe("Muitas tentativas de login. Aguarde 15 minutos e tente novamente.");
  });

  it("as esperas crescem: depois do limite da janela, a espera é a da janela inteira", async () => {
    const services = await open({ LOGIN_RATE_LIMIT: "4" });
    const admin = await createAdmin(services);
    const attacker = "203.0.113.10";
    // The short tier allows 2 a minute; the window (15 min) allows 4: two rounds a minute apart reach it.
    await signIn(services, admin.email, "errada-1", attacker);
    await signIn(services, admin.email, "errada-2", attacker);
    await services.rateLimiter.reset(`login:short:${attacker}:${admin.email}`);
    await signIn(services, admin.email, "errada-3", attacker);
    await signIn(services, admin.email, "errada-4", attacker);
    await services.rateLimiter.reset(`login:short:${attacker}:${admin.email}`);
    const blocked = await signIn(services, admin.email, admin.password, attacker);
    expect(blocked).toMatchObject({ code: "rate_limited", message: t.auth.rateLimited(15) });
    expect(blocked.ok ? 0 : blocked.retryAfterSeconds).toBeGreaterThan(60);
  });

  it("limita também por IP (3 × o limite por conta), em contas diferentes", async () => {
    const services = await open({ LOGIN_RATE_LIMIT: "2", LOGIN_RATE_WINDOW_SECONDS: "60" });
    const ip = "192.0.2.7";
    for (let attempt = 1; attempt <= 6; attempt++) {
      const result = await signIn(services, uniqueEmail("tentativa"), "x", ip);
      expect(result, `tentativa ${attempt}`).toMatchObject({ code: "invalid" });
    }
    const admin = await createAdmin(services);
    expect(await signIn(services, admin.email, admin.password, ip)).toMatchObject({
      ok: false,
      code: "rate_limited",
      message: "Muitas tentativas de login. Aguarde 1 minuto e tente novamente.",
      status: 429,
      retryAfterSeconds: expect.any(Number),
    });
    expect((await signIn(services, admin.email, admin.password, "192.0.2.8")).ok).toBe(true);
  });
});

/** The .eml files written to the outbox so far (SMTP_URL unset), oldest first. */
const outboxFiles = (services: Services) => {
  const dir = path.join(services.dataDir, "outbox");
  return fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((name) => name.endsWith(".eml"))
        .sort()
    : [];
};
/**
 * The outbox once the mailer has written every mail handed to it (the auth calls hand theirs over before they return,
 * and write them in the background): exactly `count` .eml files.
 */
async function waitForOutbox(services: Services, count: number) {
  await services.mailer.idle();
  const files = outboxFiles(services);
  expect(files, "os .eml no outbox").toHaveLength(count);
  return files;
}
async function readMail(services: Services, file: string) {
  const mail = await simpleParser(fs.readFileSync(path.join(services.dataDir, "outbox", file)));
  return { to: mail.to && !Array.isArray(mail.to) ? mail.to.value[0]?.address : undefined, subject: mail.subject, text: mail.text ?? "" };
}

const register = (services: Services, email: string, password: string, ip = freshIp()) =>
  services.auth.register({ email, password, ip, headers: new Headers() });

describe("register", () => {
  it("cria a conta não confirmada, sem sessão; responde registered_not_admin com o uid e manda o link de confirmação", async () => {
    const services = await open();
    const email = uniqueEmail("novo");
    const result = await register(services, email, "senha-nova-1");
    const user = await services.admins.findUser(email);
    expect(user).toMatchObject({ email, emailVerified: false });
    expect(result).toEqual({
      ok: false,
      code: "registered_not_admin",
      message: t.auth.registeredNotAdmin,
      notice: t.auth.registeredCheckEmail,
      uid: user!.id,
      status: 403,
    });
    expect(t.auth.registeredNotAdmin).toBe("Usuário registrado, mas não autorizado como admin.");
    expect(await sessionCount(services)).toBe(0);
    // Unconfirmed: signing in is refused (with a hint to confirm), and no session appears.
    expect(await signIn(services, email, "senha-nova-1")).toMatchObject({ ok: false, code: "email_not_verified", message: t.auth.emailNotVerified });
    expect(await sessionCount(services)).toBe(0);

    const [file] = await waitForOutbox(services, 1);
    // The mail carries a link that confirms the account: readable by the server's user only.
    expect(fs.statSync(path.join(services.dataDir, "outbox")).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(services.dataDir, "outbox", file!)).mode & 0o777).toBe(0o600);
    const mail = await readMail(services, file!);
    expect(mail).toMatchObject({ to: email, subject: t.auth.mail.verifySubject("Esporte em Foco") });
    const token = decodeURIComponent(/http:\/\/127\.0\.0\.1:4321\/admin\/verify-email\?token=(\S+)/.exec(mail.text)![1]!);
    expect(await services.auth.verifyEmail(token)).toEqual({ ok: true, uid: user!.id });
    expect(await services.admins.findUser(email)).toMatchObject({ emailVerified: true });
    // Confirmed, but not an admin: the spec's answer, with the same uid, and still no session.
    expect(await signIn(services, email, "senha-nova-1")).toMatchObject({ code: "not_admin", uid: user!.id });
    expect(await sessionCount(services)).toBe(0);
  });

  it("um link de confirmação inventado ou adulterado é recusado", async () => {
    const services = await open();
    expect(await services.auth.verifyEmail("")).toMatchObject({ ok: false, code: "verify_invalid", message: t.auth.verifyInvalid });
    expect(await services.auth.verifyEmail("abc.def.ghi")).toMatchObject({ ok: false, code: "verify_invalid" });
  });

  it("e-mail já cadastrado: a mesma resposta de um cadastro novo (outro uid), nada muda, e o dono recebe um aviso", async () => {
    const services = await open();
    const owner = await createUser(services);
    const result = await register(services, owner.email, "outra-senha-1");
    expect(result).toMatchObject({
      ok: false,
      code: "registered_not_admin",
      message: t.auth.registeredNotAdmin,
      notice: t.auth.registeredCheckEmail,
      status: 403,
    });
    expect(result.ok ? undefined : result.uid).toMatch(/^\w{16,}$/);
    expect(result.ok ? undefined : result.uid).not.toBe(owner.id);
    expect(await services.admins.findUser(result.ok ? "" : result.uid!)).toBeUndefined();
    expect(await sessionCount(services)).toBe(0);
    // The owner's password is unchanged, and they were told someone tried.
    await services.admins.grant(owner.id);
    expect((await signIn(services, owner.email, owner.password)).ok).toBe(true);
    expect(await signIn(services, owner.email, "outra-senha-1")).toMatchObject({ code: "invalid" });
    const [file] = await waitForOutbox(services, 1);
    expect(await readMail(services, file!)).toMatchObject({ to: owner.email, subject: t.auth.mail.existingSubject("Esporte em Foco") });
  });

  it("cadastros são limitados por e-mail e por endereço IP, com 429 e a mensagem em português", async () => {
    const services = await open({ LOGIN_RATE_LIMIT: "5" });
    const email = uniqueEmail("insistente");
    for (let attempt = 0; attempt < 3; attempt++) expect((await register(services, email, "senha-nova-1")).ok).toBe(false);
    expect(await register(services, email, "senha-nova-1")).toMatchObject({
      code: "rate_limited",
      status: 429,
      message: t.auth.registerRateLimited(15),
    });
    // Per IP: five sign-ups from one address, then refused whatever the e-mail.
    const ip = freshIp();
    for (let attempt = 0; attempt < 5; attempt++) {
      expect(await register(services, uniqueEmail("lote"), "senha-nova-1", ip)).toMatchObject({ code: "registered_not_admin" });
    }
    expect(await register(services, uniqueEmail("lote"), "senha-nova-1", ip)).toMatchObject({ code: "rate_limited", status: 429 });
  });

  it("quem registrou o e-mail de outra pessoa perde a conta quando o dono redefine a senha pelo link (que confirma o e-mail)", async () => {
    const services = await open();
    const email = uniqueEmail("redacao");
    expect((await register(services, email, "senha-do-intruso")).ok).toBe(false);
    await services.auth.requestPasswordReset({ email, ip: freshIp(), headers: new Headers() });
    const files = await waitForOutbox(services, 2);
    const mails = await Promise.all(files.map((file) => readMail(services, file)));
    const reset = mails.find((mail) => mail.subject === t.auth.mail.resetSubject("Esporte em Foco"))!;
    const token = decodeURIComponent(/reset-password\?token=(\S+)/.exec(reset.text)![1]!);
    expect((await services.auth.resetPassword({ token, newPassword: "senha-do-dono-1" })).ok).toBe(true);
    expect(await services.admins.findUser(email)).toMatchObject({ emailVerified: true });
    expect(await signIn(services, email, "senha-do-intruso")).toMatchObject({ code: "invalid" });
    expect(await signIn(services, email, "senha-do-dono-1")).toMatchObject({ code: "not_admin" });
  });

  it("a política de senha vale também no servidor (Better Auth), com as mensagens em português", async () => {
    const services = await open({ PASSWORD_REQUIRE_UPPERCASE: "1", PASSWORD_REQUIRE_NUMBER: "1" });
    const email = uniqueEmail("fraca");
    const result = await register(services, email, "abc");
    expect(result).toEqual({
      ok: false,
      code: "policy",
      message: [t.auth.passwordRules.tooShort(6), t.auth.passwordRules.uppercase, t.auth.passwordRules.number].join("\n"),
      status: 400,
    });
    expect(await services.admins.findUser(email)).toBeUndefined();
  });

  it("o máximo configurado é aplicado no servidor", async () => {
    const services = await open({ PASSWORD_MAX_LENGTH: "10" });
    const result = await register(services, uniqueEmail(), "a".repeat(11));
    expect(result).toMatchObject({ ok: false, code: "policy", message: t.auth.passwordRules.tooLong(10) });
  });
});

describe("requestPasswordReset: sem enumeração de usuários", () => {
  it("a mesma resposta para e-mail conhecido e desconhecido; só o conhecido recebe o .eml, com o link de redefinição", async () => {
    const services = await open();
    const user = await createUser(services);
    const unknown = await services.auth.requestPasswordReset({ email: uniqueEmail("desconhecido"), ip: freshIp(), headers: new Headers() });
    // Every mail handed to the mailer so far (a wrong one for the unknown address too) is written before counting.
    await waitForOutbox(services, 0);
    const known = await services.auth.requestPasswordReset({ email: user.email, ip: freshIp(), headers: new Headers() });
    expect(known.ok).toBe(true);
    expect(unknown.ok).toBe(true);
    if (!known.ok || !unknown.ok) return;
    expect([...known.headers]).toEqual([...unknown.headers]);
    const files = await waitForOutbox(services, 1);

    const mail = await simpleParser(fs.readFileSync(path.join(services.dataDir, "outbox", files[0]!)));
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.value[0]?.address : undefined).toBe(user.email);
    expect(mail.subject).toBe(t.auth.mail.resetSubject("Esporte em Foco"));
    const link = /http:\/\/127\.0\.0\.1:4321\/admin\/reset-password\?token=([^\s]+)/.exec(mail.text ?? "");
    expect(link, mail.text).not.toBeNull();
    const token = decodeURIComponent(link![1]!);

    // The link works once, applies the policy, and the new password replaces the old one.
    expect(await services.auth.resetPassword({ token, newPassword: "123" })).toMatchObject({
      ok: false,
      code: "policy",
      message: t.auth.passwordRules.tooShort(6),
    });
    expect((await services.auth.resetPassword({ token, newPassword: "nova-senha-2" })).ok).toBe(true);
    expect(await services.auth.resetPassword({ token, newPassword: "outra-senha-3" })).toMatchObject({
      ok: false,
      message: t.auth.resetInvalid,
    });
    await services.admins.grant(user.id);
    expect(await signIn(services, user.email, user.password)).toMatchObject({ code: "invalid" });
    expect((await signIn(services, user.email, "nova-senha-2")).ok).toBe(true);
  });

  it("um token inventado é recusado com a mensagem de link inválido", async () => {
    const services = await open();
    expect(await services.auth.resetPassword({ token: "token-inventado", newPassword: "nova-senha-2" })).toEqual({
      ok: false,
      code: "invalid",
      message: t.auth.resetInvalid,
      status: 400,
    });
  });

  it("a redefinição encerra as sessões abertas da conta", async () => {
    const services = await open();
    const admin = await createAdmin(services);
    expect((await signIn(services, admin.email, admin.password)).ok).toBe(true);
    expect(await sessionCount(services, admin.id)).toBe(1);
    await services.auth.requestPasswordReset({ email: admin.email, ip: freshIp(), headers: new Headers() });
    const [file] = await waitForOutbox(services, 1);
    const mail = await simpleParser(fs.readFileSync(path.join(services.dataDir, "outbox", file!)));
    const token = decodeURIComponent(/reset-password\?token=([^\s]+)/.exec(mail.text ?? "")![1]!);
    expect((await services.auth.resetPassword({ token, newPassword: "nova-senha-2" })).ok).toBe(true);
    expect(await sessionCount(services, admin.id)).toBe(0);
  });
});

describe("requestPasswordReset: limites que não travam o dono", () => {
  it("uma enxurrada para o e-mail do administrador, de um endereço: só esse endereço espera; o dono pede de outro lugar e recebe; um e-mail por vez", async () => {
    const services = await open();
    const admin = await createAdmin(services);
    const attacker = freshIp();
    const request = (email: string, ip: string) => services.auth.requestPasswordReset({ email, ip, headers: new Headers() });
    for (let attempt = 0; attempt < 10; attempt++) expect((await request(admin.email, attacker)).ok).toBe(true);
    expect(await request(admin.email.toUpperCase(), attacker)).toMatchObject({ ok: false, code: "rate_limited", status: 429 });
    // The admin, elsewhere: the same answer as always, never a 429.
    expect(await request(admin.email, freshIp())).toEqual({ ok: true, headers: new Headers() });
    await waitForOutbox(services, 1);
  });

  it("depois do intervalo, um novo pedido manda um novo e-mail; um endereço desconhecido recebe a mesma resposta", async () => {
    const services = await open();
    const user = await createUser(services);
    const ip = freshIp();
    // The same service on a limiter of its own, and a clock the test moves ahead (the limiter reads Date.now).
    const realNow = Date.now;
    let ahead = 0;
    const clock = vi.spyOn(Date, "now").mockImplementation(() => realNow() + ahead);
    try {
      const auth = createAuthService({ ...services, auth: services.betterAuth, limiter: createMemoryRateLimiter() });
      const request = (email: string, from = freshIp()) => auth.requestPasswordReset({ email, ip: from, headers: new Headers() });
      expect((await request(user.email, ip)).ok).toBe(true);
      await waitForOutbox(services, 1);
      ahead += (RESET_MAIL_INTERVAL_SECONDS - 10) * 1000;
      expect((await request(user.email)).ok).toBe(true);
      await waitForOutbox(services, 1);
      ahead += 20_000;
      expect((await request(user.email)).ok).toBe(true);
      await waitForOutbox(services, 2);
      const unknown = uniqueEmail("ninguem");
      for (let attempt = 0; attempt < 3; attempt++) {
        expect(await request(unknown, ip)).toEqual({ ok: true, headers: new Headers() });
      }
    } finally {
      clock.mockRestore();
    }
  });
});

describe("log de acesso: segredos na URL ficam ocultos", () => {
  it("token de redefinição, code e state do OAuth são substituídos; o resto da URL fica", async () => {
    const { redactUrl } = await import("#server/app.ts");
    expect(redactUrl("/admin/reset-password?token=abc123")).toBe("/admin/reset-password?token=%5Boculto%5D");
    expect(redactUrl("/admin/reset-password.data?token=abc123")).not.toContain("abc123");
    const callback = redactUrl("/api/auth/callback/google?code=c0de&state=st4te&iss=http%3A%2F%2F127.0.0.1");
    expect(callback).not.toContain("c0de");
    expect(callback).not.toContain("st4te");
    expect(new URLSearchParams(callback.split("?")[1]).get("iss")).toBe("http://127.0.0.1");
    expect(redactUrl("/news-list?tab=1")).toBe("/news-list?tab=1");
    expect(redactUrl("/admin/login")).toBe("/admin/login");
    expect(redactUrl("/x?TOKEN=a")).not.toContain("=a");
  });
});
