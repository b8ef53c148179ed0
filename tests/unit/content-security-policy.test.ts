/**
 * The Content-Security-Policy built from the configuration and the hashes of a page's inline scripts. The page
 * cache's per-page policy (computed once per stored page, sent with every answer of that page) is tested with the
 * cache, in tests/integration/page-cache.test.ts.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseConfig } from "#app/.server/config/env.server.ts";
import { createMediaStore } from "#app/.server/storage/create-store.server.ts";
import { sharedCacheMayStore } from "#app/lib/cache-headers.ts";
import { contentSecurityPolicy, inlineScriptHashes, partnerConsented, policyOptionsFromConfig, settlePolicy } from "#server/security-headers.ts";

const BASE_ENV = { DATA_DIR: "/tmp/eef-csp-config", SITE_URL: "https://noticias.example" };

/** The policy options of a configuration, with the media store it builds (local and S3 need no database). */
function optionsOf(env: Record<string, string>) {
  const config = parseConfig(env);
  return policyOptionsFromConfig(config, createMediaStore(config));
}

const directive = (policy: string, name: string) =>
  policy
    .split(";")
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${name} `));

describe("the policy from the configuration", () => {
  it("local media, no Google: forms and media only to the site", () => {
    const policy = contentSecurityPolicy(optionsOf(BASE_ENV), "'nonce-abc'");
    expect(directive(policy, "form-action")).toBe("form-action 'self'");
    expect(directive(policy, "img-src")).toBe("img-src 'self' data: blob:");
    expect(directive(policy, "script-src")).toBe("script-src 'self' 'nonce-abc'");
    expect(directive(policy, "connect-src")).toBe("connect-src 'self'");
    expect(policy).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
  });

  it("sign-in with Google and the Drive store add Google's consent origin to form-action; S3_PUBLIC_URL to img-src and media-src", () => {
    const google = optionsOf({ ...BASE_ENV, GOOGLE_CLIENT_ID: "id", GOOGLE_CLIENT_SECRET: "segredo" });
    expect(directive(contentSecurityPolicy(google), "form-action")).toBe("form-action 'self' https://accounts.google.com");
    // The Drive store's own origins (its consent page) are checked by the store contract (drive-store.test.ts).
    const drive = policyOptionsFromConfig(parseConfig(BASE_ENV), {
      publicOrigins: () => ({ media: [], forms: ["https://accounts.google.com"] }),
    });
    expect(directive(contentSecurityPolicy(drive), "form-action")).toBe("form-action 'self' https://accounts.google.com");
    const s3 = contentSecurityPolicy(optionsOf({ ...BASE_ENV, MEDIA_STORE: "s3", S3_BUCKET: "fotos", S3_PUBLIC_URL: "https://cdn.example/fotos/" }));
    expect(directive(s3, "img-src")).toBe("img-src 'self' data: blob: https://cdn.example");
    expect(directive(s3, "media-src")).toBe("media-src 'self' data: blob: https://cdn.example");
    expect(directive(s3, "form-action")).toBe("form-action 'self'");
  });

  it("EXTERNAL_MEDIA_ORIGINS (imported media left on Google Drive) are added to img-src and media-src only, after the bucket", () => {
    const policy = contentSecurityPolicy(
      optionsOf({
        ...BASE_ENV,
        MEDIA_STORE: "s3",
        S3_BUCKET: "fotos",
        S3_PUBLIC_URL: "https://cdn.example/fotos/",
        EXTERNAL_MEDIA_ORIGINS: "https://drive.google.com https://*.googleusercontent.com https://cdn.example",
      }),
    );
    const sources = "'self' data: blob: https://cdn.example https://drive.google.com https://*.googleusercontent.com";
    expect(directive(policy, "img-src")).toBe(`img-src ${sources}`);
    expect(directive(policy, "media-src")).toBe(`media-src ${sources}`);
    expect(directive(policy, "default-src")).toBe("default-src 'self'");
    expect(directive(policy, "connect-src")).toBe("connect-src 'self'");
  });
});

describe("inlineScriptHashes", () => {
  const hash = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;
  it("hashes every inline script as the browser does (CRLF as LF), not scripts with src, each once", () => {
    const html =
      '<script>window.a=1</script><script src="/assets/x.js"></script><script type="module" async="">import "/x.js";\r\nrun()</script>' +
      "<script>window.a=1</script><SCRIPT>é</SCRIPT>";
    expect(inlineScriptHashes(html)).toEqual([hash("window.a=1"), hash('import "/x.js";\nrun()'), hash("é")]);
  });

  it("leaves out data blocks (JSON-LD), which browsers never run", () => {
    const html = '<script type="application/ld+json">{"@type":"NewsArticle"}</script><script>go()</script>';
    expect(inlineScriptHashes(html)).toEqual([hash("go()")]);
  });
});

describe("UPLOADS_PER_ADMIN / UPLOADS_TOTAL", () => {
  it("default to 2 and 4; the total is never below one admin's share; bad values name the variable", () => {
    expect(parseConfig(BASE_ENV).media.parallelUploads).toEqual({ perAdmin: 2, total: 4 });
    expect(parseConfig({ ...BASE_ENV, UPLOADS_PER_ADMIN: "3", UPLOADS_TOTAL: "1" }).media.parallelUploads).toEqual({ perAdmin: 3, total: 3 });
    expect(() => parseConfig({ ...BASE_ENV, UPLOADS_TOTAL: "0" })).toThrow(/UPLOADS_TOTAL/);
  });
});

describe("the ad partner (ADSENSE_CLIENT)", () => {
  const partner = "https://pagead2.googlesyndication.com";
  it("is allowed only for a consenting reader, and only when configured", () => {
    const withAds = optionsOf({ ...BASE_ENV, ADSENSE_CLIENT: "ca-pub-1234567890" });
    expect(partnerConsented(withAds, "eef.consent=accepted")).toBe(true);
    expect(partnerConsented(withAds, "a=1; eef.consent=accepted; b=2")).toBe(true);
    for (const cookie of [undefined, "", "eef.consent=refused", "eef.consent=acceptedx", "xeef.consent=accepted"]) {
      expect(partnerConsented(withAds, cookie), String(cookie)).toBe(false);
    }
    expect(directive(contentSecurityPolicy(withAds, "'nonce-abc'", true), "script-src")).toContain(partner);
    expect(directive(contentSecurityPolicy(withAds, "'nonce-abc'", false), "script-src")).toBe("script-src 'self' 'nonce-abc'");
    const without = optionsOf(BASE_ENV);
    expect(partnerConsented(without, "eef.consent=accepted")).toBe(false);
    expect(contentSecurityPolicy(without, "", true)).not.toContain("googlesyndication");
  });

  it("refuses a publisher or slot id that is not one", () => {
    expect(() => parseConfig({ ...BASE_ENV, ADSENSE_CLIENT: "pub-123" })).toThrow(/ADSENSE_CLIENT/);
    expect(() => parseConfig({ ...BASE_ENV, ADSENSE_CLIENT: "ca-pub-1234567890", ADSENSE_SLOT_TOP: "topo" })).toThrow(/ADSENSE_SLOT_TOP/);
  });
});

describe("the policy an answer leaves with (settlePolicy)", () => {
  /** A response's headers as Express keeps them (a value or, once appended to, a list). */
  function answer(headers: Record<string, string | string[]>) {
    const map = new Map(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
    return {
      getHeader: (name: string) => map.get(name.toLowerCase()),
      setHeader(name: string, value: string | string[]) {
        map.set(name.toLowerCase(), value);
        return this as never;
      },
      policy: () => map.get("content-security-policy"),
    };
  }
  const nonce = "script-src 'self' 'nonce-abc'";
  const fixed = "script-src 'self'";

  it("a shared cache may store anything but private or no-store answers (and one without Cache-Control)", () => {
    for (const value of ["public, max-age=0, s-maxage=30", "public, max-age=300", "max-age=60", "no-cache", "", null, undefined]) {
      expect(sharedCacheMayStore(value), String(value)).toBe(true);
    }
    for (const value of ["private, no-store", "no-store", "private", "Private, max-age=0", ["public", "no-store"]]) {
      expect(sharedCacheMayStore(value), String(value)).toBe(false);
    }
  });

  it("an answer a shared cache may store never leaves with the nonce; a private one keeps it", () => {
    for (const cacheControl of ["public, max-age=0, s-maxage=30", "public, max-age=31536000, immutable"]) {
      const shared = answer({ "Content-Security-Policy": nonce, "Cache-Control": cacheControl });
      settlePolicy(shared, fixed);
      expect(shared.policy(), cacheControl).toBe(fixed);
    }
    const bare = answer({ "Content-Security-Policy": nonce });
    settlePolicy(bare, fixed);
    expect(bare.policy()).toBe(fixed);
    const own = answer({ "Content-Security-Policy": nonce, "Cache-Control": "private, no-store" });
    settlePolicy(own, fixed);
    expect(own.policy()).toBe(nonce);
  });

  it("a rendered page's own policy (appended after the nonce one) is the one sent", () => {
    const hashed = "script-src 'self' 'sha256-AAAA'";
    const page = answer({ "Content-Security-Policy": [nonce, hashed], "Cache-Control": "public, max-age=0, s-maxage=30" });
    settlePolicy(page, fixed);
    expect(page.policy()).toBe(hashed);
  });
});
