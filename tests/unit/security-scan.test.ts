/**
 * How `npm run security` reads the scanners' output and which targets it accepts (scripts/security.ts). The scan
 * itself needs sqlmap, wapiti and many minutes, so it is a command of its own, not part of this suite.
 */
import { describe, expect, it } from "vitest";
import { assertLoopback, sqlmapFindings, sqlmapRequestArgs, WAPITI_MODULES, wapitiFindings } from "#scripts/security.ts";

describe("npm run security", () => {
  it("scans 127.0.0.1 only", () => {
    expect(() => assertLoopback("http://127.0.0.1:4000/article/1")).not.toThrow();
    for (const url of ["http://localhost:4000/", "http://10.0.0.1/", "https://127.0.0.1/", "http://127.0.0.2/", "http://example.com/"]) {
      expect(() => assertLoopback(url), url).toThrow(/127\.0\.0\.1/);
    }
    expect(() => sqlmapRequestArgs("http://example.com", { name: "x", method: "GET", path: "/api/news?limit=1" }, "c=1")).toThrow();
  });

  it("sends the admin's cookie and a same-site Origin only where asked", () => {
    const admin = sqlmapRequestArgs(
      "http://127.0.0.1:4000",
      { name: "x", method: "PATCH", path: "/api/news/1", admin: true, body: { type: "json", fields: { title: "a" } } },
      "s=1",
    );
    expect(admin).toContain("--cookie=s=1");
    expect(admin).toContain('--data={"title":"a"}');
    expect(admin.find((arg) => arg.startsWith("--headers="))).toContain("Origin: http://127.0.0.1:4000");
    const reader = sqlmapRequestArgs("http://127.0.0.1:4000", { name: "x", method: "GET", path: "/article/1*" }, "s=1");
    expect(reader.some((arg) => arg.startsWith("--cookie"))).toBe(false);
    expect(reader).toContain("http://127.0.0.1:4000/article/1*");
  });

  it("leaves out wapiti's modules that reach the internet", () => {
    for (const module of ["wapp", "nikto", "ssrf", "xxe"]) expect(WAPITI_MODULES).not.toContain(module);
  });

  it("counts injections, suspicions and 5xx in sqlmap's output, not its negative verdicts", () => {
    const clean = [
      "[WARNING] heuristic (basic) test shows that URI parameter '#1*' might not be injectable",
      "[WARNING] URI parameter '#1*' does not seem to be injectable",
      "[CRITICAL] all tested parameters do not appear to be injectable.",
      // A suspicion sqlmap dismisses itself.
      "[INFO] GET parameter 'view' appears to be 'AND boolean-based blind - WHERE or HAVING clause' injectable ",
      "[WARNING] false positive or unexploitable injection point detected",
      "[WARNING] GET parameter 'view' does not seem to be injectable",
      "[WARNING] HTTP error codes detected during run:",
      "404 (Not Found) - 287 times",
      "[CRITICAL] target URL content appears to be heavily dynamic. sqlmap is going to retry the request(s)",
    ].join("\n");
    expect(sqlmapFindings(clean)).toEqual([]);
    const dirty = [
      "[INFO] GET parameter 'cursor' appears to be 'AND boolean-based blind - WHERE or HAVING clause' injectable",
      "[INFO] heuristic (XSS) test shows that GET parameter 'tab' might be vulnerable to cross-site scripting (XSS) attacks",
      "sqlmap identified the following injection point(s) with a total of 40 HTTP(s) requests:",
      "500 (Internal Server Error) - 3 times",
      "[ERROR] not authorized, try to provide right HTTP authentication type and valid credentials (401). If this is intended, try to rerun by providing a valid value for option '--ignore-code', skipping to the next target",
      "[CRITICAL] connection timed out to the target URL",
    ].join("\n");
    expect(sqlmapFindings(dirty)).toHaveLength(6);
  });

  it("counts wapiti's vulnerabilities and anomalies, listing the expected ones apart", () => {
    const report = {
      vulnerabilities: {
        "HTTP Secure Headers": [
          { method: "GET", path: "/", info: "Strict-Transport-Security is not set", parameter: "" },
          { method: "GET", path: "/", info: "X-Frame-Options is not set", parameter: "" },
        ],
        "SQL Injection": [],
      },
      anomalies: {
        "Internal Server Error": [
          { method: "GET", path: "/news-list", info: "The server responded with a 500 HTTP error code", parameter: "cursor" },
        ],
      },
    };
    const { findings, expected } = wapitiFindings(report);
    expect(expected.map((entry) => entry.info)).toEqual(["Strict-Transport-Security is not set"]);
    expect(findings.map((entry) => `${entry.kind} ${entry.info}`)).toEqual([
      "vulnerabilidade X-Frame-Options is not set",
      "anomalia The server responded with a 500 HTTP error code",
    ]);
  });
});
