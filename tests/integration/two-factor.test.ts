import { base32 } from "@better-auth/utils/base32";
import { createOTP } from "@better-auth/utils/otp";
import { describe, expect, it } from "vitest";
import { TWO_FACTOR_CODES_PER_CHALLENGE } from "#app/.server/auth/two-factor.server.ts";
import { t } from "#app/i18n/newsroom.ts";
import { createAdmin } from "#tests/factories/auth.ts";
import { type TestServices, useTestServices } from "#tests/factories/use-services.ts";

type Services = TestServices;

const open = useTestServices("eef-2fa-", { SITE_URL: "http://127.0.0.1:4321" });

let ipCounter = 0;
const freshIp = () => `10.7.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

/** The cookies a browser would send back after receiving these Set-Cookie headers. */
function cookiesFrom(headers: Headers): Headers {
  const cookie = headers
    .getSetCookie()
    .map((line) => line.split(";")[0]!)
    .filter((pair) => !/=$/.test(pair))
    .join("; ");
  return new Headers({ cookie });
}

async function signIn(services: Services, email: string, password: string) {
  return services.auth.signInWithPassword({ email, password, ip: freshIp(), headers: new Headers() });
}

/** Signs the admin in (password only) and turns two-factor on; returns the TOTP secret and recovery codes. */
async function enableTwoFactor(services: Services, email: string, password: string) {
  const signedIn = await signIn(services, email, password);
  if (!signedIn.ok) throw new Error(`login falhou: ${signedIn.message}`);
  let session = cookiesFrom(signedIn.headers);
  const started = await services.auth.startTwoFactor({ password, headers: session });
  if (!started.ok) throw new Error(started.message);
  // What an authenticator app does: decode the base32 key of the URI, then make codes from it.
  const secret = new TextDecoder().decode(base32.decode(new URL(started.totpURI).searchParams.get("secret")!));
  expect(started.totpURI).toMatch(/^otpauth:\/\/totp\/Esporte%20em%20Foco:/);
  expect(started.backupCodes).toHaveLength(10);
  // Not on until a code of the app is confirmed.
  expect((await services.auth.twoFactorStatus((await services.admins.findUser(email))!.id)).enabled).toBe(false);
  expect(await services.auth.confirmTwoFactor({ code: "000000", headers: session })).toMatchObject({ ok: false, code: "two_factor_invalid" });
  const confirmed = await services.auth.confirmTwoFactor({ code: await createOTP(secret).totp(), headers: session });
  if (!confirmed.ok) throw new Error(confirmed.message);
  session = cookiesFrom(confirmed.headers);
  return { secret, backupCodes: started.backupCodes, session };
}

describe("verificação em duas etapas (TOTP) para administradores", () => {
  it("ativada, o login pede o código do aplicativo; código errado é recusado; o certo abre a sessão", async () => {
    const services = await open();
    const admin = await createAdmin(services);
    expect(await services.auth.startTwoFactor({ password: "senha-errada", headers: new Headers() })).toMatchObject({ ok: false });
    const { secret } = await enableTwoFactor(services, admin.email, admin.password);
    expect((await services.auth.twoFactorStatus(admin.id)).enabled).toBe(true);

    const first = await signIn(services, admin.email, admin.password);
    expect(first).toMatchObject({ ok: false, code: "two_factor", message: t.auth.twoFactor.prompt });
    const challenge = cookiesFrom((first as { headers: Headers }).headers);
    expect(challenge.get("cookie")).toContain("eef.two_factor");
    expect(challenge.get("cookie")).not.toContain("session_token");

    expect(await services.auth.verifySecondFactor({ code: "123456", method: "totp", ip: freshIp(), headers: challenge })).toMatchObject({
      ok: false,
      code: "two_factor_invalid",
      message: t.auth.twoFactor.invalidCode,
    });
    const second = await services.auth.verifySecondFactor({
      code: await createOTP(secret).totp(),
      method: "totp",
      ip: freshIp(),
      headers: challenge,
    });
    expect(second.ok).toBe(true);
    const viewer = await services.auth.getViewer(
      new Request("http://localhost/", { headers: cookiesFrom((second as { headers: Headers }).headers) }),
    );
    expect(viewer).toMatchObject({ userId: admin.id, isAdmin: true, twoFactorEnabled: true });

    // Without the first step's cookie a code alone opens nothing.
    expect(
      await services.auth.verifySecondFactor({ code: await createOTP(secret).totp(), method: "totp", ip: freshIp(), headers: new Headers() }),
    ).toMatchObject({ ok: false, code: "two_factor_expired" });
  });

  it("um código de recuperação entra uma única vez", async () => {
    const services = await open();
    const admin = await createAdmin(services);
    const { backupCodes } = await enableTwoFactor(services, admin.email, admin.password);
    const challengeOf = async () => cookiesFrom(((await signIn(services, admin.email, admin.password)) as { headers: Headers }).headers);
    const used = await services.auth.verifySecondFactor({ code: backupCodes[0]!, method: "backup", ip: freshIp(), headers: await challengeOf() });
    expect(used.ok).toBe(true);
    const again = await services.auth.verifySecondFactor({ code: backupCodes[0]!, method: "backup", ip: freshIp(), headers: await challengeOf() });
    expect(again).toMatchObject({ ok: false, code: "two_factor_invalid" });
  });

  it("desativar pede a senha; com ADMIN_2FA=required não é possível e quem não ativou é mandado ativar", async () => {
    const services = await open();
    const admin = await createAdmin(services);
    const { session } = await enableTwoFactor(services, admin.email, admin.password);
    expect(await services.auth.disableTwoFactor({ password: "senha-errada", headers: session })).toMatchObject({
      ok: false,
      message: t.auth.twoFactor.wrongPassword,
    });
    expect((await services.auth.disableTwoFactor({ password: admin.password, headers: session })).ok).toBe(true);
    expect((await services.auth.twoFactorStatus(admin.id)).enabled).toBe(false);
    expect((await signIn(services, admin.email, admin.password)).ok).toBe(true);

    const strict = await open({ ADMIN_2FA: "required" });
    const other = await createAdmin(strict);
    const viewer = { userId: other.id, email: other.email, role: "admin" as const, isAdmin: true, twoFactorEnabled: false };
    expect(await strict.auth.lacksRequiredTwoFactor(viewer)).toBe(true);
    expect(await services.auth.lacksRequiredTwoFactor(viewer)).toBe(false);
    const enabled = await enableTwoFactor(strict, other.email, other.password);
    expect(await strict.auth.lacksRequiredTwoFactor({ ...viewer, twoFactorEnabled: true })).toBe(false);
    expect(await strict.auth.disableTwoFactor({ password: other.password, headers: enabled.session })).toMatchObject({
      ok: false,
      message: t.auth.twoFactor.cannotDisable,
    });
  });

  it("sem desafio válido (nenhum cookie, cookie forjado) a tentativa é recusada sem contar: um estranho não bloqueia o administrador", async () => {
    const services = await open();
    const admin = await createAdmin(services);
    const { secret } = await enableTwoFactor(services, admin.email, admin.password);
    const forged = new Headers({ cookie: "eef.two_factor=2fa-aaaaaaaaaaaaaaaaaaaa.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA%3D" });
    const strangerIp = freshIp();
    for (let attempt = 0; attempt < 31; attempt++) {
      const headers = attempt % 2 ? forged : new Headers();
      expect(await services.auth.verifySecondFactor({ code: "000000", method: "totp", ip: strangerIp, headers })).toMatchObject({
        ok: false,
        code: "two_factor_expired",
        status: 401,
      });
    }
    // The real admin, from the same address even: password, then the right code.
    const first = await services.auth.signInWithPassword({ email: admin.email, password: admin.password, ip: strangerIp, headers: new Headers() });
    const challenge = cookiesFrom((first as { headers: Headers }).headers);
    const second = await services.auth.verifySecondFactor({
      code: await createOTP(secret).totp(),
      method: "totp",
      ip: strangerIp,
      headers: challenge,
    });
    expect(second.ok).toBe(true);
  });

  it("uma enxurrada de códigos errados num desafio real encerra esse desafio, não a conta", async () => {
    const services = await open();
    const admin = await createAdmin(services);
    const { secret } = await enableTwoFactor(services, admin.email, admin.password);
    const first = await signIn(services, admin.email, admin.password);
    const challenge = cookiesFrom((first as { headers: Headers }).headers);
    const ip = freshIp();
    const answers = [];
    for (let attempt = 0; attempt < 20; attempt++) {
      answers.push((await services.auth.verifySecondFactor({ code: "000000", method: "totp", ip, headers: challenge })) as { code: string });
    }
    expect(answers.slice(0, TWO_FACTOR_CODES_PER_CHALLENGE).map((answer) => answer.code)).toEqual(
      Array(TWO_FACTOR_CODES_PER_CHALLENGE).fill("two_factor_invalid"),
    );
    expect(new Set(answers.slice(TWO_FACTOR_CODES_PER_CHALLENGE).map((answer) => answer.code))).toEqual(new Set(["two_factor_expired"]));
    // That challenge is over, even with the right code…
    expect(await services.auth.verifySecondFactor({ code: await createOTP(secret).totp(), method: "totp", ip, headers: challenge })).toMatchObject({
      ok: false,
      code: "two_factor_expired",
    });
    // …but the account is not locked: a new password step and the right code open the session.
    const again = cookiesFrom(((await signIn(services, admin.email, admin.password)) as { headers: Headers }).headers);
    expect((await services.auth.verifySecondFactor({ code: await createOTP(secret).totp(), method: "totp", ip: freshIp(), headers: again })).ok).toBe(
      true,
    );
  });
});
