import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeDataDir } from "#tests/factories/services.ts";
import { type ServerProcess, spawnServer } from "#tests/factories/site.ts";

/**
 * `npm run dev` (server.js --dev, Vite in middleware mode) answers what goes through React Router's request handler,
 * not only what the page cache serves: loaders, resource routes and the API read their services from the request's
 * context, which only works when the handler and the routes share one copy of react-router (vite.config.ts).
 * SQLite only: the development server's wiring does not depend on the database.
 */
describe.skipIf(process.env.TEST_DATABASE === "postgres")("servidor de desenvolvimento (npm run dev)", () => {
  let dataDir: string;
  let server: ServerProcess;

  beforeAll(async () => {
    dataDir = makeDataDir("eef-dev-");
    server = await spawnServer({ serverArgs: ["--dev"], env: { NODE_ENV: "development", DATA_DIR: dataDir }, timeoutMs: 90_000 });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it.each(["/healthz", "/readyz", "/api/news", "/rss.xml", "/", "/news-list"])("%s responde 200", async (path) => {
    const response = await fetch(server.url + path);
    expect(response.status, server.logs()).toBe(200);
  });

  it("uma página de administração sem sessão manda para o login", async () => {
    const response = await fetch(`${server.url}/add-news`, { redirect: "manual" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/admin/login?redirectTo=%2Fadd-news");
  });
});
