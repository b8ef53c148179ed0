/**
 * The browser's files as the build compressed them (vite.config.ts, server/main.ts): brotli to a browser that takes it,
 * gzip to one that takes only gzip, the file itself otherwise; each the very bytes written beside the file, cached a
 * year, never compressed again per request.
 */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { expect, t, test } from "./support/fixtures.ts";

const ASSETS = path.resolve(import.meta.dirname, "../../build/client/assets");

test("scripts e estilos saem comprimidos pelo build: brotli, gzip ou o arquivo, sempre os mesmos bytes", async ({ emptySite, playwright }) => {
  const home = await (await fetch(`${emptySite.url}/`)).text();
  const script = /\/assets\/(entry\.client-[\w-]+\.js)/.exec(home)?.[1];
  const style = /\/assets\/(root-[\w-]+\.css)/.exec(home)?.[1];
  expect(script).toBeTruthy();
  expect(style).toBeTruthy();
  const client = await playwright.request.newContext();
  try {
    for (const file of [script!, style!]) {
      const original = fs.readFileSync(path.join(ASSETS, file));
      const url = `${emptySite.url}/assets/${file}`;
      const br = await client.get(url, { headers: { "Accept-Encoding": "gzip, deflate, br" } });
      expect(br.headers()).toMatchObject({
        "content-encoding": "br",
        vary: "Accept-Encoding",
        "cache-control": "public, max-age=31536000, immutable",
      });
      expect(Number(br.headers()["content-length"])).toBe(fs.statSync(path.join(ASSETS, `${file}.br`)).size);
      const gz = await client.get(url, { headers: { "Accept-Encoding": "gzip" } });
      expect(gz.headers()["content-encoding"]).toBe("gzip");
      expect(Number(gz.headers()["content-length"])).toBe(fs.statSync(path.join(ASSETS, `${file}.gz`)).size);
      const plain = await client.get(url, { headers: { "Accept-Encoding": "identity" } });
      expect(plain.headers()["content-encoding"]).toBeUndefined();
      expect(Buffer.compare(await plain.body(), original)).toBe(0);
      // What the browser decodes is the file (Playwright decodes brotli and gzip bodies).
      expect(Buffer.compare(await br.body(), original)).toBe(0);
      expect(Buffer.compare(zlib.brotliDecompressSync(fs.readFileSync(path.join(ASSETS, `${file}.br`))), original)).toBe(0);
    }
    // A missing asset (an old tab's script after a deploy, a made-up name) is a plain 404, not a rendered page.
    const missing = await client.get(`${emptySite.url}/assets/entry.client-semana-passada.js`);
    expect(missing.status()).toBe(404);
    expect(missing.headers()["content-type"]).toContain("text/plain");
    expect(await missing.text()).toBe(t.errors.assetNotFound);
  } finally {
    await client.dispose();
  }
});
