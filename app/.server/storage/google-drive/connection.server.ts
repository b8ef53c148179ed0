import type { Kysely } from "kysely";
import type { GoogleDriveConfig } from "#app/.server/config/env.server.ts";
import {
  deleteSetting as deleteStoredSetting,
  readSetting as readStoredSetting,
  writeSetting as writeStoredSetting,
} from "#app/.server/db/app-settings.queries.server.ts";
import type { Database } from "#app/.server/db/schema.ts";
import type { Logger } from "#app/.server/logger.server.ts";
import { decryptSecret, encryptSecret } from "./crypto.server.ts";
import { DriveAuthError, DriveNotConnectedError, oauthError } from "./errors.server.ts";
import { createDriveOAuthState, type StateContext, verifyDriveOAuthState } from "./oauth-state.server.ts";

/** Only the files this app creates (or the user opens with it): never the rest of the newsroom's Drive. */
export const DRIVE_SCOPE = "https://www.googleapis.com/auth/drive.file";
/** `app_settings` keys: the encrypted credentials, and when the last Drive sign-in failed. */
export const DRIVE_CREDENTIALS_KEY = "gdrive_credentials";
export const DRIVE_FAILURE_KEY = "gdrive_login_failed_at";
/** Lifetime of an access token when the token endpoint gives no `expires_in` (the spec's one hour). */
export const DEFAULT_TOKEN_LIFETIME_SECONDS = 3600;
/** A token is renewed this long before it expires (at most a tenth of its lifetime), so no call carries a dying one. */
const EXPIRY_MARGIN_MS = 60_000;
/** `isConnected` trusts a token it obtained this long before asking the token endpoint again. */
const DEFAULT_VERIFY_TTL_MS = 5 * 60_000;
/** Token endpoint calls that hang are cut off after this long (the page then says "not connected"). */
const TOKEN_TIMEOUT_MS = 10_000;

/** What is kept, encrypted, in `app_settings` for the whole newsroom. */
interface StoredCredentials {
  refreshToken: string;
  scope: string;
  connectedAt: string;
  /** User id of the admin who gave consent. */
  connectedBy: string | null;
}

interface AccessToken {
  value: string;
  expiresAt: number;
  /** The stored credentials (ciphertext) it was obtained with: other credentials make it stale. */
  credentials: string;
}

export interface DriveConnectionOptions {
  db: Kysely<Database>;
  config: Pick<GoogleDriveConfig, "clientId" | "clientSecret" | "authUrl" | "tokenUrl" | "revokeUrl" | "redirectUri">;
  /** The app secret: the refresh token is encrypted at rest with a key derived from it. */
  secret: string;
  log?: Pick<Logger, "info" | "warn" | "error">;
  /** Clock (ms since the epoch) for token expiry (tests). */
  now?: () => number;
  fetch?: typeof fetch;
  /** How long `isConnected` trusts an obtained token before checking with the token endpoint again. */
  verifyTtlMs?: number;
}

export interface DriveConnectionStatus {
  connected: boolean;
  /** The last sign-in failed (refused consent, revoked or failing token) and nobody has connected since. */
  failed: boolean;
}

export type DriveConnection = ReturnType<typeof createDriveConnection>;

/**
 * The newsroom's connection to Google Drive (OAuth 2, scope drive.file). One admin's consent gives a refresh token,
 * kept server-side, encrypted (AES-256-GCM, key from the app secret), for everyone; access tokens are obtained from
 * it when needed and kept in memory until shortly before they expire. A refresh token that Google refuses
 * (`invalid_grant`: revoked, expired) is forgotten, and the store is "not connected" until an admin connects again.
 *
 * Several instances share the credentials through the database; each keeps its own access token.
 */
export function createDriveConnection(options: DriveConnectionOptions) {
  const { db, config, secret, log } = options;
  const now = options.now ?? Date.now;
  const doFetch = options.fetch ?? fetch;
  const verifyTtlMs = options.verifyTtlMs ?? DEFAULT_VERIFY_TTL_MS;

  let decrypted: { cipher: string; credentials: StoredCredentials } | null = null;
  let token: AccessToken | null = null;
  let verifiedAt = 0;
  let refreshing: Promise<AccessToken> | null = null;
  /** The token endpoint could not be reached or failed (not a refusal): not connected, credentials kept. */
  let transientFailure = false;
  /** Stored credentials that this secret cannot decrypt (logged once). */
  let unreadable: string | null = null;

  const readSetting = (key: string) => readStoredSetting(db, key);
  const writeSetting = (key: string, value: string) => writeStoredSetting(db, key, value);
  const deleteSetting = (key: string) => deleteStoredSetting(db, key);

  /** The stored credentials (decrypted once per ciphertext), or null when there are none or they cannot be read. */
  async function readCredentials(): Promise<{ cipher: string; credentials: StoredCredentials } | null> {
    const cipher = await readSetting(DRIVE_CREDENTIALS_KEY);
    if (!cipher) {
      decrypted = null;
      token = null;
      return null;
    }
    if (decrypted?.cipher === cipher) return decrypted;
    try {
      const credentials = JSON.parse(decryptSecret(secret, DRIVE_CREDENTIALS_KEY, cipher)) as StoredCredentials;
      if (typeof credentials.refreshToken !== "string" || !credentials.refreshToken) throw new Error("no refresh token");
      decrypted = { cipher, credentials };
      return decrypted;
    } catch (error) {
      // Another app secret (AUTH_SECRET changed, or DATA_DIR/secrets lost) or a damaged value: unusable, but kept
      // (with the old secret back, it works again; a new connection replaces it).
      if (unreadable !== cipher) log?.error({ err: error }, "stored Google Drive credentials cannot be decrypted; an admin must connect again");
      unreadable = cipher;
      transientFailure = true;
      return null;
    }
  }

  /**
   * Forgets the credentials (only `cipher`, when given: credentials stored meanwhile by another admin stay) and,
   * with `failed`, records that the sign-in failed so the admin pages say so.
   */
  async function forget(failed: boolean, cipher?: string): Promise<void> {
    await deleteStoredSetting(db, DRIVE_CREDENTIALS_KEY, cipher);
    if (!cipher || decrypted?.cipher === cipher) decrypted = null;
    if (!cipher || token?.credentials === cipher) token = null;
    verifiedAt = 0;
    if (failed) await writeSetting(DRIVE_FAILURE_KEY, new Date(now()).toISOString());
  }

  async function postForm(url: string, form: Record<string, string>): Promise<Response> {
    try {
      return await doFetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
        body: new URLSearchParams(form).toString(),
        signal: AbortSignal.timeout(TOKEN_TIMEOUT_MS),
      });
    } catch (error) {
      throw new DriveAuthError(`Google OAuth: ${url} did not answer: ${(error as Error).message}`, 0, null);
    }
  }

  function tokenFrom(body: { access_token?: unknown; expires_in?: unknown }, credentials: string): AccessToken {
    if (typeof body.access_token !== "string" || !body.access_token) {
      throw new DriveAuthError("Google OAuth: answer without access_token", 200, null);
    }
    const seconds = Number(body.expires_in);
    const lifetimeMs = (Number.isFinite(seconds) && seconds > 0 ? seconds : DEFAULT_TOKEN_LIFETIME_SECONDS) * 1000;
    const margin = Math.min(EXPIRY_MARGIN_MS, lifetimeMs / 10);
    return { value: body.access_token, expiresAt: now() + lifetimeMs - margin, credentials };
  }

  /** refresh_token grant. `invalid_grant` (revoked, expired) forgets the credentials; other failures keep them. */
  async function refresh(stored: { cipher: string; credentials: StoredCredentials }): Promise<AccessToken> {
    const response = await postForm(config.tokenUrl, {
      grant_type: "refresh_token",
      refresh_token: stored.credentials.refreshToken,
      client_id: config.clientId,
      client_secret: config.clientSecret,
    });
    if (!response.ok) {
      const error = await oauthError("token refresh", response);
      if (error.code === "invalid_grant") {
        log?.warn({ status: error.status }, "Google Drive refresh token refused (revoked or expired): not connected");
        await forget(true, stored.cipher);
        throw new DriveNotConnectedError();
      }
      throw error;
    }
    const body = (await response.json()) as { access_token?: string; expires_in?: number; refresh_token?: string };
    let cipher = stored.cipher;
    // Google may hand out a new refresh token; the old one then stops working soon.
    if (typeof body.refresh_token === "string" && body.refresh_token && body.refresh_token !== stored.credentials.refreshToken) {
      cipher = await save({ ...stored.credentials, refreshToken: body.refresh_token });
    }
    return tokenFrom(body, cipher);
  }

  async function save(credentials: StoredCredentials): Promise<string> {
    const cipher = encryptSecret(secret, DRIVE_CREDENTIALS_KEY, JSON.stringify(credentials));
    await writeSetting(DRIVE_CREDENTIALS_KEY, cipher);
    decrypted = { cipher, credentials };
    return cipher;
  }

  /** A valid access token, refreshed when it is about to expire (one refresh at a time). */
  async function accessToken(): Promise<string> {
    const stored = await readCredentials();
    if (!stored) throw new DriveNotConnectedError();
    if (token && token.credentials === stored.cipher && now() < token.expiresAt) return token.value;
    refreshing ??= refresh(stored)
      .then(
        (fresh) => {
          token = fresh;
          verifiedAt = now();
          transientFailure = false;
          return fresh;
        },
        (error: unknown) => {
          if (!(error instanceof DriveNotConnectedError)) transientFailure = true;
          throw error;
        },
      )
      .finally(() => {
        refreshing = null;
      });
    return (await refreshing).value;
  }

  /** Stores a refresh token (encrypted) as the newsroom's connection, replacing any other; clears the failure mark. */
  async function saveRefreshToken(refreshToken: string, details: { scope?: string; connectedBy?: string | null } = {}): Promise<void> {
    token = null;
    verifiedAt = 0;
    transientFailure = false;
    await save({
      refreshToken,
      scope: details.scope ?? DRIVE_SCOPE,
      connectedAt: new Date(now()).toISOString(),
      connectedBy: details.connectedBy ?? null,
    });
    await deleteSetting(DRIVE_FAILURE_KEY);
    log?.info({ connectedBy: details.connectedBy ?? null }, "Google Drive connected");
  }

  /**
   * Whether uploads can go through now: credentials are stored and an access token can be obtained. A token
   * obtained in the last few minutes is trusted without asking Google again. Never throws.
   */
  async function isConnected(): Promise<boolean> {
    try {
      const stored = await readCredentials();
      if (!stored) return false;
      const fresh = token && token.credentials === stored.cipher && now() < token.expiresAt;
      if (!fresh || now() - verifiedAt >= verifyTtlMs) {
        if (fresh) token = null;
        await accessToken();
      }
      return true;
    } catch (error) {
      if (!(error instanceof DriveNotConnectedError)) log?.warn({ err: error }, "Google Drive connection check failed");
      return false;
    }
  }

  /** Google's consent page: offline access (a refresh token), consent asked again so one is always given. */
  function authorizationUrl(state: string): string {
    const url = new URL(config.authUrl);
    url.search = new URLSearchParams({
      client_id: config.clientId,
      redirect_uri: config.redirectUri,
      response_type: "code",
      scope: DRIVE_SCOPE,
      access_type: "offline",
      prompt: "consent",
      include_granted_scopes: "true",
      state,
    }).toString();
    return url.href;
  }

  return {
    scope: DRIVE_SCOPE,
    authorizationUrl,

    /**
     * Starts "Conectar ao Google Drive" for this admin's session: Google's consent URL, and the Set-Cookie header
     * that binds its state to the session (signed with the app secret).
     */
    beginConsent(context: Omit<StateContext, "secret"> & { returnTo: string; secure: boolean }): { url: string; setCookie: string } {
      const { state, setCookie } = createDriveOAuthState({ ...context, secret });
      return { url: authorizationUrl(state), setCookie };
    },

    /** Whether Google's redirect back belongs to a consent this admin's session started (and where to go back to). */
    verifyConsent(context: Omit<StateContext, "secret"> & { state: string | null }): { valid: boolean; returnTo: string | null } {
      return verifyDriveOAuthState({ ...context, secret });
    },

    /** Exchanges the authorization code from the consent redirect and keeps the refresh token for the newsroom. */
    async completeAuthorization(code: string, connectedBy: string | null): Promise<void> {
      const response = await postForm(config.tokenUrl, {
        grant_type: "authorization_code",
        code,
        redirect_uri: config.redirectUri,
        client_id: config.clientId,
        client_secret: config.clientSecret,
      });
      if (!response.ok) throw await oauthError("authorization code exchange", response);
      const body = (await response.json()) as { access_token?: string; expires_in?: number; refresh_token?: string; scope?: string };
      if (typeof body.refresh_token !== "string" || !body.refresh_token) {
        throw new DriveAuthError("Google OAuth: the answer has no refresh_token (offline access refused)", 200, null);
      }
      // Google's consent screen lets the user untick a scope: without drive.file nothing would work.
      const scope = typeof body.scope === "string" ? body.scope : DRIVE_SCOPE;
      if (!scope.split(/\s+/).includes(DRIVE_SCOPE)) {
        await postForm(config.revokeUrl, { token: body.refresh_token }).catch(() => undefined);
        throw new DriveAuthError("Google OAuth: access to the Drive files was not granted", 200, "insufficient_scope");
      }
      await saveRefreshToken(body.refresh_token, { scope, connectedBy });
      if (typeof body.access_token === "string" && decrypted) {
        token = tokenFrom(body, decrypted.cipher);
        verifiedAt = now();
      }
    },

    accessToken,
    saveRefreshToken,

    /** Drive refused `rejected` (401): it is dropped, so the next `accessToken()` refreshes. */
    rejectToken(rejected: string): void {
      if (token?.value === rejected) token = null;
      verifiedAt = 0;
    },

    /** Drive keeps refusing freshly refreshed tokens: the credentials are useless, forget them. */
    async fail(reason: string): Promise<void> {
      log?.warn({ reason }, "Google Drive refuses the connection's tokens: not connected");
      const stored = await readCredentials();
      if (stored) await forget(true, stored.cipher);
    },

    isConnected,

    /** `isConnected`, and whether the last sign-in failed (for the admin pages). Never throws. */
    async status(): Promise<DriveConnectionStatus> {
      const connected = await isConnected();
      if (connected) return { connected, failed: false };
      let marked = false;
      try {
        marked = (await readSetting(DRIVE_FAILURE_KEY)) !== null;
      } catch (error) {
        log?.warn({ err: error }, "could not read the Google Drive failure mark");
      }
      return { connected, failed: marked || transientFailure };
    },

    /** Records a failed sign-in (consent refused, code exchange failed), shown on the admin pages until a success. */
    async recordFailure(): Promise<void> {
      await writeSetting(DRIVE_FAILURE_KEY, new Date(now()).toISOString());
    },

    /** Signs the newsroom out: revokes the refresh token at Google (best effort) and forgets it. */
    async disconnect(): Promise<void> {
      const stored = await readCredentials();
      if (stored) {
        try {
          const response = await postForm(config.revokeUrl, { token: stored.credentials.refreshToken });
          // 400 invalid_token: already revoked or expired, which is what we want anyway.
          if (!response.ok) log?.warn({ err: await oauthError("revocation", response) }, "Google Drive token revocation refused");
          else await response.body?.cancel();
        } catch (error) {
          log?.warn({ err: error }, "Google Drive token revocation failed; forgetting the token anyway");
        }
      }
      await forget(false);
      await deleteSetting(DRIVE_FAILURE_KEY);
      transientFailure = false;
      log?.info({}, "Google Drive disconnected");
    },
  };
}
