/**
 * The Google Drive connection (OAuth 2, scope drive.file) against the contract server: the consent URL, the code
 * exchange, the refresh token kept encrypted at rest (AES-256-GCM, key from the app secret), revocation on
 * "Desconectar", failures, and the OAuth state bound to the admin's session.
 */
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRIVE_CREDENTIALS_KEY, DRIVE_FAILURE_KEY, DRIVE_SCOPE, createDriveConnection } from "#app/.server/storage/google-drive/connection.server.ts";
import { decryptSecret, encryptSecret } from "#app/.server/storage/google-drive/crypto.server.ts";
import { DriveAuthError } from "#app/.server/storage/google-drive/errors.server.ts";
import {
  clearDriveOAuthStateCookie,
  createDriveOAuthState,
  DRIVE_STATE_COOKIE,
  DRIVE_STATE_TTL_MS,
  verifyDriveOAuthState,
} from "#app/.server/storage/google-drive/oauth-state.server.ts";
import { isIosUserAgent } from "#app/.server/storage/google-drive/status.server.ts";
import { createTestServices, makeDataDir } from "#tests/factories/services.ts";
import { type DriveContractServer, startDriveContractServer } from "#tests/storage/drive-contract-server.ts";

const SECRET = "segredo-de-teste-do-drive-com-mais-de-32-caracteres";
const OTHER_SECRET = "outro-segredo-de-teste-com-mais-de-32-caracteres!";
const SITE = "http://127.0.0.1:3999";

let drive: DriveContractServer;
let services: Awaited<ReturnType<typeof createTestServices>>;

beforeAll(async () => {
  drive = await startDriveContractServer({ consent: "auto" });
  services = await createTestServices(makeDataDir("eef-drive-conn-"), { AUTH_SECRET: SECRET });
});
afterAll(async () => {
  await services?.close();
  if (services) fs.rmSync(services.dataDir, { recursive: true, force: true });
  await drive?.stop();
});

function connection(secret = SECRET) {
  return createDriveConnection({ db: services.database.db, config: drive.config(SITE), secret });
}

async function setting(key: string): Promise<string | null> {
  const row = await services.database.db.selectFrom("app_settings").select("value").where("key", "=", key).executeTakeFirst();
  return row?.value ?? null;
}

/** Follows the consent URL like a browser would (consent given automatically): the code and state sent back. */
async function consent(url: string): Promise<URL> {
  const response = await fetch(url, { redirect: "manual" });
  expect(response.status).toBe(302);
  return new URL(response.headers.get("location")!);
}

describe("Google Drive connection", () => {
  it("asks for drive.file only, offline access and consent, with the state and our callback", () => {
    const url = new URL(connection().authorizationUrl("estado-123"));
    expect(url.origin + url.pathname).toBe(`${drive.url}/o/oauth2/v2/auth`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: drive.clientId,
      redirect_uri: `${SITE}/admin/drive/callback`,
      response_type: "code",
      scope: "https://www.googleapis.com/auth/drive.file",
      access_type: "offline",
      prompt: "consent",
      include_granted_scopes: "true",
      state: "estado-123",
    });
    expect(DRIVE_SCOPE).toBe("https://www.googleapis.com/auth/drive.file");
  });

  it("exchanges the code, keeps the refresh token encrypted, and is connected", async () => {
    const conn = connection();
    expect(await conn.isConnected()).toBe(false);
    const back = await consent(conn.authorizationUrl("estado-abc"));
    expect(back.origin + back.pathname).toBe(`${SITE}/admin/drive/callback`);
    expect(back.searchParams.get("state")).toBe("estado-abc");
    const code = back.searchParams.get("code")!;
    await conn.completeAuthorization(code, "admin-1");
    const exchange = drive.calls("exchange").at(-1)!;
    expect(exchange.status).toBe(200);
    expect(exchange.body).toEqual({ grant_type: "authorization_code", client_id: drive.clientId });

    const refreshesBefore = drive.calls("refresh").length;
    expect(await conn.isConnected()).toBe(true);
    // The access token from the exchange is used: no refresh needed yet.
    expect(drive.calls("refresh").length).toBe(refreshesBefore);

    // At rest: neither the refresh token nor anything readable.
    const stored = (await setting(DRIVE_CREDENTIALS_KEY))!;
    expect(stored).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(stored).not.toContain("1//");
    expect(stored).not.toContain("refreshToken");
    const plain = JSON.parse(decryptSecret(SECRET, DRIVE_CREDENTIALS_KEY, stored)) as { refreshToken: string; connectedBy: string; scope: string };
    expect(plain.refreshToken).toMatch(/^1\/\//);
    expect(drive.isRefreshTokenActive(plain.refreshToken)).toBe(true);
    expect(plain.connectedBy).toBe("admin-1");
    expect(plain.scope).toBe(DRIVE_SCOPE);
    expect(() => decryptSecret(OTHER_SECRET, DRIVE_CREDENTIALS_KEY, stored)).toThrow();
    expect(() => decryptSecret(SECRET, "outra-finalidade", stored)).toThrow();

    // Another instance (same database and secret) is connected too.
    expect(await connection().isConnected()).toBe(true);
    // With another app secret the credentials cannot be read: not connected, and the pages say the login failed.
    const wrong = connection(OTHER_SECRET);
    expect(await wrong.isConnected()).toBe(false);
    expect(await wrong.status()).toEqual({ connected: false, failed: true });
    expect(await setting(DRIVE_CREDENTIALS_KEY)).toBe(stored);
  });

  it("a code used twice, or a refused consent, fails with the OAuth error and leaves the connection as it was", async () => {
    const conn = connection();
    const back = await consent(conn.authorizationUrl("s"));
    await conn.completeAuthorization(back.searchParams.get("code")!, "admin-1");
    const before = await setting(DRIVE_CREDENTIALS_KEY);
    const error = await conn.completeAuthorization(back.searchParams.get("code")!, "admin-1").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DriveAuthError);
    expect((error as DriveAuthError).code).toBe("invalid_grant");
    expect(await setting(DRIVE_CREDENTIALS_KEY)).toBe(before);

    drive.consent = "deny";
    try {
      const denied = await consent(conn.authorizationUrl("negado"));
      expect(denied.searchParams.get("error")).toBe("access_denied");
      expect(denied.searchParams.get("state")).toBe("negado");
      expect(denied.searchParams.has("code")).toBe(false);
    } finally {
      drive.consent = "auto";
    }
  });

  it("the token endpoint failing (500) means not connected for now, credentials kept", async () => {
    const clock = { now: Date.now() };
    const conn = createDriveConnection({ db: services.database.db, config: drive.config(SITE), secret: SECRET, now: () => clock.now });
    await conn.saveRefreshToken(drive.issueRefreshToken());
    drive.failNext("refresh", { status: 500 });
    expect(await conn.isConnected()).toBe(false);
    expect(await conn.status()).toEqual({ connected: true, failed: false }); // the next check succeeds
    drive.failNext("refresh", { status: 503 });
    clock.now += 10 * 60_000;
    expect(await conn.status()).toEqual({ connected: false, failed: true });
    expect(await setting(DRIVE_CREDENTIALS_KEY)).not.toBeNull();
    expect(await conn.isConnected()).toBe(true);
  });

  it("an unreachable token endpoint: not connected, without throwing", async () => {
    const conn = createDriveConnection({
      db: services.database.db,
      config: { ...drive.config(SITE), tokenUrl: "http://127.0.0.1:9/token" },
      secret: SECRET,
    });
    await conn.saveRefreshToken("1//qualquer");
    await expect(conn.isConnected()).resolves.toBe(false);
    expect((await conn.status()).failed).toBe(true);
  });

  it("Desconectar revokes the refresh token at Google and forgets it", async () => {
    const conn = connection();
    const token = drive.issueRefreshToken();
    await conn.saveRefreshToken(token);
    expect(await conn.isConnected()).toBe(true);
    await conn.disconnect();
    const revoke = drive.calls("revoke").at(-1)!;
    expect(revoke.status).toBe(200);
    expect(drive.isRefreshTokenActive(token)).toBe(false);
    expect(await setting(DRIVE_CREDENTIALS_KEY)).toBeNull();
    expect(await setting(DRIVE_FAILURE_KEY)).toBeNull();
    expect(await conn.status()).toEqual({ connected: false, failed: false });

    // Revocation refused (already revoked) or failing: forgotten all the same.
    await conn.saveRefreshToken(token);
    await conn.disconnect();
    expect(drive.calls("revoke").at(-1)!.status).toBe(400);
    expect(await setting(DRIVE_CREDENTIALS_KEY)).toBeNull();
  });

  it("a refused sign-in is recorded until the next connection", async () => {
    const conn = connection();
    await conn.recordFailure();
    expect(await conn.status()).toEqual({ connected: false, failed: true });
    await conn.saveRefreshToken(drive.issueRefreshToken());
    expect(await conn.status()).toEqual({ connected: true, failed: false });
    await conn.disconnect();
  });

  it("a consent where the Drive permission was unticked is refused (and the token revoked)", async () => {
    const conn = connection();
    const url = new URL(conn.authorizationUrl("sem-escopo"));
    url.searchParams.set("scope", "openid email");
    const back = await consent(url.href);
    const error = await conn.completeAuthorization(back.searchParams.get("code")!, "admin-1").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DriveAuthError);
    expect(drive.calls("revoke").at(-1)!.status).toBe(200);
    expect(await conn.isConnected()).toBe(false);
  });
});

describe("encryption at rest", () => {
  it("AES-256-GCM with a fresh nonce: same input, different output; altered values and other secrets fail", () => {
    const a = encryptSecret(SECRET, "finalidade", "1//segredo");
    const b = encryptSecret(SECRET, "finalidade", "1//segredo");
    expect(a).not.toBe(b);
    expect(decryptSecret(SECRET, "finalidade", a)).toBe("1//segredo");
    expect(() => decryptSecret(OTHER_SECRET, "finalidade", a)).toThrow();
    const [version, nonce, body, tag] = a.split(".");
    const flipped = Buffer.from(body!, "base64url");
    flipped[0]! ^= 1;
    expect(() => decryptSecret(SECRET, "finalidade", [version, nonce, flipped.toString("base64url"), tag].join("."))).toThrow();
    expect(() => decryptSecret(SECRET, "finalidade", "texto-claro")).toThrow();
  });
});

describe("OAuth state bound to the admin's session", () => {
  const request = (cookies: string) => new Request(`${SITE}/admin/drive/callback`, { headers: { cookie: cookies } });
  const session = "eef.session_token=sessao-do-admin.assinatura";

  function started(now = Date.now()) {
    const made = createDriveOAuthState({ secret: SECRET, userId: "admin-1", request: request(session), returnTo: "/add-news", secure: false, now });
    const cookieValue = made.setCookie.split(";")[0]!.slice(`${DRIVE_STATE_COOKIE}=`.length);
    return { ...made, cookie: `${session}; ${DRIVE_STATE_COOKIE}=${cookieValue}` };
  }

  it("sets an HttpOnly, SameSite=Lax cookie limited to /admin/drive", () => {
    const { setCookie, state } = started();
    expect(state).toMatch(/^[\w-]{32}$/);
    expect(setCookie).toMatch(
      new RegExp(`^${DRIVE_STATE_COOKIE.replace(".", "\\.")}=[\\w-]+\\.[\\w-]+; Path=/admin/drive; Max-Age=600; HttpOnly; SameSite=Lax$`),
    );
    expect(createDriveOAuthState({ secret: SECRET, userId: "u", request: request(""), returnTo: "/", secure: true }).setCookie).toMatch(/; Secure$/);
    expect(clearDriveOAuthStateCookie(false)).toMatch(/Max-Age=0/);
  });

  it("accepts the state only for the same admin, the same session, before it expires", () => {
    const now = Date.now();
    const { state, cookie } = started(now);
    const check = (overrides: Partial<Parameters<typeof verifyDriveOAuthState>[0]>) =>
      verifyDriveOAuthState({ secret: SECRET, userId: "admin-1", request: request(cookie), state, now: now + 1000, ...overrides });
    expect(check({})).toEqual({ valid: true, returnTo: "/add-news" });
    expect(check({ state: "outro" }).valid).toBe(false);
    expect(check({ state: null }).valid).toBe(false);
    expect(check({ userId: "admin-2" }).valid).toBe(false);
    expect(check({ request: request(cookie.replace("sessao-do-admin", "outra-sessao")) }).valid).toBe(false);
    expect(check({ now: now + DRIVE_STATE_TTL_MS + 1 }).valid).toBe(false);
    expect(check({ secret: OTHER_SECRET })).toEqual({ valid: false, returnTo: null });
    expect(check({ request: request(session) })).toEqual({ valid: false, returnTo: null });
    // A cookie whose content was changed keeps no valid signature.
    const [, signature] = cookie.split(`${DRIVE_STATE_COOKIE}=`)[1]!.split(".");
    const forged = Buffer.from(JSON.stringify({ n: state, u: "admin-1", s: "x", r: "https://mal.example", e: now + 60_000 })).toString("base64url");
    expect(check({ request: request(`${session}; ${DRIVE_STATE_COOKIE}=${forged}.${signature}`) })).toEqual({ valid: false, returnTo: null });
  });
});

describe("iOS detection", () => {
  it("recognises iPhone, iPad and iPod browsers only", () => {
    expect(
      isIosUserAgent("Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Version/18.0 Mobile/15E148 Safari/604.1"),
    ).toBe(true);
    expect(isIosUserAgent("Mozilla/5.0 (iPad; CPU OS 16_0 like Mac OS X) AppleWebKit/605.1.15 CriOS/120.0 Mobile/15E148 Safari/604.1")).toBe(true);
    expect(isIosUserAgent("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/140.0 Safari/537.36")).toBe(false);
    expect(isIosUserAgent(null)).toBe(false);
  });
});
