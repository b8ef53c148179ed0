/**
 * The Content-Security-Policy built from the configuration, the hashes of a page's inline scripts, and the page
 * cache's per-page policy (computed once per stored page, sent with every answer of that page).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createHash } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { parseConfig } from "../../app/.server/config/env.server.ts";
import { createPageCache } from "../../server/page-cache.ts";
import { contentSecurityPolicy, inlineScriptHashes, policyOptionsFromConfig } from "../../server/security-headers.ts";

const BASE_ENV = { DATA_DIR: "/tmp/eef-csp-config", SITE_URL: "https://noticias.example" };

const directive = (policy: string, name: string) =>
  policy
    .split(";")
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${name} `));

describe("the policy from the configuration", () => {
  it("local media, no Google: forms and media only to the site", () => {
    const policy = contentSecurityPolicy(policyOptionsFromConfig(parseConfig(BASE_ENV)), "'nonce-abc'");
    expect(directive(policy, "form-action")).toBe("form-action 'self'");
    expect(directive(policy, "img-src")).toBe("img-src 'self' data: blob:");
    expect(directive(policy, "script-src")).toBe("script-src 'self' 'nonce-abc'");
    expect(directive(policy, "connect-src")).toBe("connect-src 'self'");
    expect(policy).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
  });

  it("sign-in with Google and the Drive store add Google's consent origin to form-action; S3_PUBLIC_URL to img-src and media-src", () => {
    const google = policyOptionsFromConfig(parseConfig({ ...BASE_ENV, GOOGLE_CLIENT_ID: "id", GOOGLE_CLIENT_SECRET: "segredo" }));
    expect(directive(contentSecurityPolicy(google), "form-action")).toBe("form-action 'self' https://accounts.google.com");
    const drive = policyOptionsFromConfig(
      parseConfig({ ...BASE_ENV, MEDIA_STORE: "gdrive", GOOGLE_DRIVE_CLIENT_ID: "id", GOOGLE_DRIVE_CLIENT_SECRET: "segredo" }),
    );
    expect(directive(contentSecurityPolicy(drive), "form-action")).toBe("form-action 'self' https://accounts.google.com");
    const s3 = contentSecurityPolicy(
      policyOptionsFromConfig(parseConfig({ ...BASE_ENV, MEDIA_STORE: "s3", S3_BUCKET: "fotos", S3_PUBLIC_URL: "https://cdn.example/fotos/" })),
    );
    expect(directive(s3, "img-src")).toBe("img-src 'self' data: blob: https://cdn.example");
    expect(directive(s3, "media-src")).toBe("media-src 'self' data: blob: https://cdn.example");
    expect(directive(s3, "form-action")).toBe("form-action 'self'");
  });

  it("EXTERNAL_MEDIA_ORIGINS (imported media left on Google Drive) are added to img-src and media-src only, after the bucket", () => {
    const policy = contentSecurityPolicy(
      policyOptionsFromConfig(
        parseConfig({
          ...BASE_ENV,
          MEDIA_STORE: "s3",
          S3_BUCKET: "fotos",
          S3_PUBLIC_URL: "https://cdn.example/fotos/",
          EXTERNAL_MEDIA_ORIGINS: "https://drive.google.com https://*.googleusercontent.com https://cdn.example",
        }),
      ),
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

describe("the page cache's policy for stored pages", () => {
  const servers: http.Server[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
  });

  it("is computed once when a page is stored and sent with each answer; .data answers keep the fixed one", async () => {
    let computed = 0;
    const cache = createPageCache({
      maxBytes: 1024 * 1024,
      ttlMs: 60_000,
      log: { warn() {}, error() {} },
      headers: { "Content-Security-Policy": "fixa" },
      documentPolicy: (html) => {
        computed++;
        return `hashes ${inlineScriptHashes(html).join(" ")}`;
      },
      async render(url) {
        const html = url.endsWith(".data");
        return {
          status: 200,
          headers: new Headers({ "Content-Type": html ? "text/x-script" : "text/html; charset=utf-8", "Cache-Control": "public, s-maxage=30" }),
          body: Buffer.from(html ? "dados" : `<html><script>window.page=${JSON.stringify(url)}</script></html>`),
        };
      },
    });
    const server = http.createServer((req, res) => void cache.handle(req, res, () => res.writeHead(500).end()));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const expected = `hashes 'sha256-${createHash("sha256").update('window.page="/"').digest("base64")}'`;
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${base}/`);
      expect(response.headers.get("content-security-policy")).toBe(expected);
      expect(response.headers.get("x-page-cache")).toBe(i === 0 ? "miss" : "hit");
    }
    expect(computed).toBe(1);
    const data = await fetch(`${base}/news-list.data`);
    expect(data.headers.get("content-security-policy")).toBe("fixa");
    expect(computed).toBe(1);
  });
});

describe("UPLOADS_PER_ADMIN / UPLOADS_TOTAL", () => {
  it("default to 2 and 4; the total is never below one admin's share; bad values name the variable", () => {
    expect(parseConfig(BASE_ENV).media.parallelUploads).toEqual({ perAdmin: 2, total: 4 });
    expect(parseConfig({ ...BASE_ENV, UPLOADS_PER_ADMIN: "3", UPLOADS_TOTAL: "1" }).media.parallelUploads).toEqual({ perAdmin: 3, total: 3 });
    expect(() => parseConfig({ ...BASE_ENV, UPLOADS_TOTAL: "0" })).toThrow(/UPLOADS_TOTAL/);
  });
});
