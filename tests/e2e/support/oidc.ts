/**
 * A real OpenID Connect provider (oidc-provider) on 127.0.0.1, standing in for Google in the end-to-end suite.
 *
 * One confidential client whose redirect URI is the site's Better Auth callback (`/api/auth/callback/google`).
 * Accounts live in an in-memory map; its built-in development pages ("devInteractions") do the sign-in: type the
 * account's login in the `login` field (any password), submit, then confirm the consent page.
 * Give the site `env: oidc.siteEnv` and start it on `siteUrl`'s port (startSite `port` option).
 */
import { generateKeyPairSync, randomBytes } from "node:crypto";
import type { Server } from "node:http";
// @ts-expect-error oidc-provider ships no type declarations (and no @types package is installed); see OidcProviderClass.
import ProviderModule from "oidc-provider";
import { freePort } from "#tests/factories/site.ts";

/** The little of oidc-provider's API this file uses. */
interface OidcProviderClass {
  new (
    issuer: string,
    configuration: Record<string, unknown>,
  ): {
    listen(port: number, host: string, ready: () => void): Server;
    on(event: "authorization_code.saved", listener: (code: IssuedCode) => void): void;
  };
}

/** What the provider recorded of an authorization code it issued (to check the client's PKCE and nonce). */
export interface IssuedCode {
  accountId?: string;
  codeChallengeMethod?: string;
  codeChallenge?: string;
  nonce?: string;
}
const Provider = ProviderModule as OidcProviderClass;

export interface OidcAccount {
  /** What to type in the provider's login field; also the subject (`sub`). */
  login: string;
  email: string;
  emailVerified?: boolean;
  name?: string;
}

export interface OidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The environment the site needs to use this provider as "Google". */
  siteEnv: Record<string, string>;
  addAccount(account: OidcAccount): void;
  /** Every authorization code issued so far, oldest first. */
  issuedCodes: IssuedCode[];
  stop(): Promise<void>;
}

export async function startOidcProvider(options: { siteUrl: string; accounts?: OidcAccount[] }): Promise<OidcProvider> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = "esporte-em-foco-e2e";
  const clientSecret = randomBytes(24).toString("base64url");
  const accounts = new Map<string, OidcAccount>();
  for (const account of options.accounts ?? []) accounts.set(account.login, account);

  const signingKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" });
  const configuration = {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [`${options.siteUrl}/api/auth/callback/google`],
        response_types: ["code"],
        grant_types: ["authorization_code"],
        // Better Auth's generic OAuth sends the secret in the form body when a client secret is configured.
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    async findAccount(_ctx: unknown, sub: string) {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        async claims() {
          return {
            sub,
            email: account.email,
            email_verified: account.emailVerified ?? true,
            name: account.name ?? account.email.split("@")[0],
          };
        },
      };
    },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    // Put the scope's claims in the ID token too (as Google does), so the site need not call userinfo.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: true } },
    // PKCE is accepted (Better Auth sends an S256 challenge) but not demanded of this confidential client.
    pkce: { required: () => false },
    cookies: { keys: [randomBytes(32).toString("base64url")] },
    jwks: { keys: [{ ...signingKey, kid: "e2e", use: "sig", alg: "RS256" }] },
    ttl: { Session: 600, Interaction: 600, Grant: 600, AuthorizationCode: 60, AccessToken: 600, IdToken: 600 },
  };
  const provider = new Provider(issuer, configuration);
  const issuedCodes: IssuedCode[] = [];
  provider.on("authorization_code.saved", (code) => {
    issuedCodes.push({
      accountId: code.accountId,
      codeChallengeMethod: code.codeChallengeMethod,
      codeChallenge: code.codeChallenge,
      nonce: code.nonce,
    });
  });
  const server: Server = await new Promise((resolve, reject) => {
    const listening = provider.listen(port, "127.0.0.1", () => resolve(listening));
    listening.once("error", reject);
  });
  return {
    issuer,
    clientId,
    clientSecret,
    siteEnv: {
      GOOGLE_CLIENT_ID: clientId,
      GOOGLE_CLIENT_SECRET: clientSecret,
      GOOGLE_DISCOVERY_URL: `${issuer}/.well-known/openid-configuration`,
      SITE_URL: options.siteUrl,
    },
    addAccount(account) {
      accounts.set(account.login, account);
    },
    issuedCodes,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
