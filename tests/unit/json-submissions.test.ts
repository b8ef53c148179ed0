import { refusal } from "#tests/factories/refusal.ts";
import { describe, expect, test } from "vitest";
import { jsonFields, readJsonObject } from "#app/.server/http/submissions.server.ts";

const post = (body: BodyInit, type = "application/json", headers: Record<string, string> = {}) =>
  new Request("http://localhost/api/x", { method: "POST", body, headers: { "Content-Type": type, ...headers }, duplex: "half" } as RequestInit);

/** A body that arrives in pieces, without a Content-Length: the cap is checked as it arrives. */
function streamed(pieces: string[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(new TextEncoder().encode(piece));
      controller.close();
    },
  });
}

describe("readJsonObject", () => {
  test("an object is read", async () => {
    expect(await readJsonObject(post(JSON.stringify({ note: "ok", version: 3 })))).toEqual({ note: "ok", version: 3 });
    expect(await readJsonObject(post(streamed(['{"a":', '"b"}'])), 100)).toEqual({ a: "b" });
  });

  test("not JSON is 415; malformed JSON, an array or a scalar is 400", async () => {
    expect(await refusal(() => readJsonObject(post("note=x", "application/x-www-form-urlencoded")))).toEqual({
      code: "unsupported_media_type",
      status: 415,
    });
    for (const body of ["{", "[1]", "3", "null", ""]) {
      expect(await refusal(() => readJsonObject(post(body))), body).toEqual({ code: "invalid_json", status: 400 });
      expect(await refusal(() => readJsonObject(post(body), 100)), body).toEqual({ code: "invalid_json", status: 400 });
    }
  });

  test("past the cap: 413, declared or as it arrives", async () => {
    const big = JSON.stringify({ text: "x".repeat(200) });
    expect(await refusal(() => readJsonObject(post(big), 100))).toEqual({ code: "body_too_large", status: 413 });
    expect(await refusal(() => readJsonObject(post(streamed([big.slice(0, 90), big.slice(90)])), 100))).toEqual({
      code: "body_too_large",
      status: 413,
    });
  });
});

describe("jsonFields", () => {
  test("text stays text, flags and whole numbers only where a form has them, the body as its JSON text", () => {
    const doc = { type: "doc", content: [] };
    expect(jsonFields({ title: "T", isHighlighted: true, version: 2, body: doc, subtitle: null })).toEqual({
      title: "T",
      isHighlighted: "true",
      version: "2",
      body: JSON.stringify(doc),
    });
  });

  test("anything else is 400 naming the field, never stored as JSON text", async () => {
    for (const body of [{ title: 3 }, { title: { a: 1 } }, { version: 1.5 }, { version: "x", isHighlighted: "sim", author: true }]) {
      const { code, status } = await refusal(() => jsonFields(body));
      expect([code, status]).toEqual(["invalid_field_type", 400]);
    }
  });
});
