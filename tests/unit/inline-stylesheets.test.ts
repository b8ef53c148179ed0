import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { afterAll, describe, expect, test } from "vitest";
import { createStylesheetInliner, rewriteHeadStream } from "#app/.server/http/inline-stylesheets.server.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "eef-inline-css-"));
fs.mkdirSync(path.join(dir, "assets"));
fs.writeFileSync(path.join(dir, "assets", "root-abc.css"), "body{margin:0}");
fs.writeFileSync(path.join(dir, "assets", "home-def.css"), ".card{color:red}");
// A stylesheet that would close the element it is written into is left as a link.
fs.writeFileSync(path.join(dir, "assets", "odd-ghi.css"), '.x::after{content:"</style>"}');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("stylesheets written into the head", () => {
  const inliner = createStylesheetInliner(dir);

  test("each known stylesheet becomes its text followed by the same link, disabled; the rest is untouched", () => {
    expect(inliner.count).toBe(2);
    const head =
      '<meta charSet="utf-8"/><link rel="preload" href="/assets/font.woff2" as="font"/>' +
      '<link nonce="n0" rel="stylesheet" href="/assets/root-abc.css"/>' +
      '<link rel="stylesheet" href="/assets/home-def.css#"/>' +
      '<link rel="stylesheet" href="/assets/odd-ghi.css"/><link rel="stylesheet" href="/assets/gone-000.css"/>';
    expect(inliner.rewriteHead(head)).toBe(
      '<meta charSet="utf-8"/><link rel="preload" href="/assets/font.woff2" as="font"/>' +
        '<style data-href="/assets/root-abc.css">body{margin:0}</style><link nonce="n0" rel="stylesheet" href="/assets/root-abc.css" disabled=""/>' +
        '<style data-href="/assets/home-def.css#">.card{color:red}</style><link rel="stylesheet" href="/assets/home-def.css#" disabled=""/>' +
        '<link rel="stylesheet" href="/assets/odd-ghi.css"/><link rel="stylesheet" href="/assets/gone-000.css"/>',
    );
  });

  test("without a build (development) nothing is read and the head is returned as it is", () => {
    const none = createStylesheetInliner(path.join(dir, "missing"));
    expect(none.count).toBe(0);
    const head = '<link rel="stylesheet" href="/assets/root-abc.css"/>';
    expect(none.rewriteHead(head)).toBe(head);
  });

  test("the stream holds the document until </head>, even with a link cut between pieces, then passes the rest as it comes", async () => {
    const document =
      '<!DOCTYPE html><html><head><title>Início — é</title><link rel="stylesheet" href="/assets/root-abc.css"/></head><body>' +
      "x".repeat(5000) +
      "</body></html>";
    const bytes = Buffer.from(document);
    // Pieces of 7 bytes: the link, and the "é" (two bytes in UTF-8), fall across boundaries.
    const pieces: Buffer[] = [];
    for (let start = 0; start < bytes.length; start += 7) pieces.push(bytes.subarray(start, start + 7));
    let finished = 0;
    const out = await text(Readable.from(pieces).pipe(rewriteHeadStream(inliner.rewriteHead, () => finished++)));
    expect(out).toBe(inliner.rewriteHead(document.slice(0, document.indexOf("</head>"))) + document.slice(document.indexOf("</head>")));
    expect(out).toContain('<style data-href="/assets/root-abc.css">body{margin:0}</style>');
    expect(out).toContain("Início — é");
    expect(finished).toBe(1);
  });

  test("pieces written in one turn go on as one; a piece written later goes out on its own, as soon as its turn ends", async () => {
    const stream = rewriteHeadStream(null);
    const received: string[] = [];
    stream.on("data", (chunk: Buffer) => received.push(chunk.toString("utf8")));
    for (const piece of ["<html><head></head>", "<body><p>um</p>", "<p>dois</p>"]) stream.write(piece);
    await new Promise((resolve) => setImmediate(resolve));
    expect(received).toEqual(["<html><head></head><body><p>um</p><p>dois</p>"]);
    stream.end("<p>tarde</p></body></html>");
    await new Promise((resolve) => stream.on("end", resolve));
    expect(received).toEqual(["<html><head></head><body><p>um</p><p>dois</p>", "<p>tarde</p></body></html>"]);
  });

  test("a document without a head goes out unchanged", async () => {
    const out = await text(Readable.from([Buffer.from("<p>erro</p>")]).pipe(rewriteHeadStream(inliner.rewriteHead)));
    expect(out).toBe("<p>erro</p>");
  });
});
