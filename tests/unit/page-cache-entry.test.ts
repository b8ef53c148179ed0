import zlib from "node:zlib";
import { expect, test } from "vitest";
import { brotliParams, toEntry } from "#server/page-cache-entry.ts";

const WINDOW = zlib.constants.BROTLI_PARAM_LGWIN;

test("a stored page's brotli window fits the page, from 64 KiB up to brotli's 16 MiB", () => {
  expect(brotliParams(10)[WINDOW]).toBe(16);
  expect(brotliParams(124_151)[WINDOW]).toBe(17); // the home at 300 news: a 128 KiB window holds all of it
  expect(brotliParams(131_072)[WINDOW]).toBe(18);
  expect(brotliParams(3_000_000)[WINDOW]).toBe(22);
  expect(brotliParams(200_000_000)[WINDOW]).toBe(24);
  expect(brotliParams(124_151)[zlib.constants.BROTLI_PARAM_QUALITY]).toBe(6);
});

test("a stored page's brotli and gzip copies give back its bytes", async () => {
  // A page larger than its window's lower bound, with repeats far apart (what a window too small would lose).
  const card = (index: number) => `<article><h3>Notícia ${index}: vitória no clássico</h3><p>${"Resumo do jogo. ".repeat(20)}</p></article>`;
  const body = Buffer.from(`<!doctype html><main>${Array.from({ length: 600 }, (_, index) => card(index)).join("")}</main>`);
  expect(body.length).toBeGreaterThan(200_000);
  const page = { status: 200, headers: new Headers({ "content-type": "text/html; charset=utf-8" }), body };
  const entry = await toEntry("/", "/", page, { documentPolicy: undefined, withPartner: false }, () => 0);
  expect(zlib.brotliDecompressSync(entry.br).equals(body)).toBe(true);
  expect(zlib.gunzipSync(entry.gzip).equals(body)).toBe(true);
  expect(entry.br.length).toBeLessThan(body.length / 10);
});
