import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "#app/lib/safe-redirect.ts";

const FALLBACK = "/news-list";

describe("safeRedirectPath: caminhos do próprio site são mantidos", () => {
  it.each([
    ["/SponsorManager", "/SponsorManager"],
    ["/add-news", "/add-news"],
    ["/edit-news/abc-123", "/edit-news/abc-123"],
    ["/news-list?tab=1", "/news-list?tab=1"],
    ["/article/42?ref=menu#comentarios", "/article/42?ref=menu#comentarios"],
    ["/", "/"],
    ["  /SponsorManager  ", "/SponsorManager"],
    ["/busca?q=%2F%2Fevil.example", "/busca?q=%2F%2Fevil.example"],
    ["/admin/reset-password", "/admin/reset-password"],
  ])("%j → %j", (input, expected) => {
    expect(safeRedirectPath(input)).toBe(expected);
  });

  it("normaliza pontos sem sair do site", () => {
    expect(safeRedirectPath("/a/../SponsorManager")).toBe("/SponsorManager");
    expect(safeRedirectPath("/../../etc/passwd")).toBe("/etc/passwd");
  });
});

describe("safeRedirectPath: nada que saia do site (sem open redirect)", () => {
  it.each([
    "https://evil.example",
    "https://evil.example/news-list",
    "http://127.0.0.1:1/",
    "//evil.example",
    "//evil.example/news-list",
    "///evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "\\/evil.example",
    "/\\/evil.example",
    "javascript:alert(1)",
    "JavaScript:alert(1)",
    " javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:msgbox(1)",
    "evil.example",
    "news-list",
    "%2F%2Fevil.example",
    "\t//evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r\n/evil.example",
    "/\u0000/evil.example",
    "/news\u0000-list",
    "/news-list\u001f",
    "",
    "   ",
    // Dot segments resolved before the check (a browser would go to evil.example).
    "/.//evil.example/x",
    "/..//evil.example/x",
    "/a/../..//evil.example",
    "/%2e%2e//evil.example",
    "/%2E//evil.example",
    "/./\\evil.example",
    // Encoded slashes, backslashes and controls.
    "/%2F%2Fevil.example",
    "/%2f%2fevil.example",
    "/%2F/evil.example",
    "/%5Cevil.example",
    "/%5C%5Cevil.example",
    "/%09/evil.example",
    "/%0d%0aSet-Cookie:%20x=1",
    "/news%00-list",
    "/%E0%A4%A",
    "/\\x",
    "\\\\x",
    "/\\t/x",
    "https:/evil.example",
    "https:evil.example",
    "javascript://%0aalert(1)",
    "/\u007f/evil.example",
  ])("%j → fallback", (input) => {
    expect(safeRedirectPath(input)).toBe(FALLBACK);
  });

  it("truques codificados nunca produzem um destino fora do site", () => {
    for (const input of [
      "/%2F%2Fevil.example",
      "/%2f%2fevil.example",
      "/%5Cevil.example",
      "/%5C%5Cevil.example",
      "/%09/evil.example",
      "/%E3%80%82evil",
    ]) {
      const result = safeRedirectPath(input);
      // Whatever is kept must stay a path of this site once a browser resolves it.
      const resolved = new URL(result, "https://site.example");
      expect(resolved.origin, input).toBe("https://site.example");
      expect(result.startsWith("//"), input).toBe(false);
      expect(result.startsWith("/\\"), input).toBe(false);
    }
  });

  it("não volta para a página de login (sem laço de redirecionamento)", () => {
    for (const input of [
      "/admin/login",
      "/admin/login?redirectTo=/admin/login",
      "/admin/login/",
      "/admin/login?view=register",
      "/admin/login#x",
      // Routes match case-insensitively, so these open the login page too.
      "/ADMIN/LOGIN",
      "/Admin/Login?redirectTo=/x",
    ]) {
      expect(safeRedirectPath(input), input).toBe(FALLBACK);
    }
  });

  it("valores que não são texto dão o fallback; o fallback pode ser escolhido", () => {
    expect(safeRedirectPath(null)).toBe(FALLBACK);
    expect(safeRedirectPath(undefined)).toBe(FALLBACK);
    expect(safeRedirectPath(new File(["/SponsorManager"], "x.txt"))).toBe(FALLBACK);
    expect(safeRedirectPath("//evil.example", "/")).toBe("/");
    expect(safeRedirectPath(null, "/add-news")).toBe("/add-news");
  });
});
