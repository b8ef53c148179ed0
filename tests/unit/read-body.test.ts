/**
 * The one reader of bodies without a file (app/.server/http/read-body.server.ts): the cap holds whether the length is
 * declared or not, and the JSON depth check counts only brackets outside strings.
 */
import { describe, expect, it } from "vitest";
import { jsonDepthExceeds, readBodyText, readJsonBody } from "#app/.server/http/read-body.server.ts";
import { AppError } from "#app/.server/errors.ts";
import { t } from "#app/i18n/pt-BR.ts";

/** A chunked request whose body is `chunks` chunks of `size` bytes, made as they are asked for; counts them. */
function streamed(chunks: number, size: number) {
  const counter = { pulled: 0 };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (counter.pulled === chunks) return controller.close();
      counter.pulled++;
      controller.enqueue(new Uint8Array(size).fill(0x61));
    },
  });
  const request = new Request("http://localhost/api/news/x", { method: "PATCH", body, duplex: "half" } as RequestInit);
  return { request, counter };
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe("readBodyText", () => {
  it("a Content-Length over the cap is a 413 in pt-BR before a byte is read", async () => {
    const request = new Request("http://localhost/", { method: "POST", body: "a".repeat(2000), headers: { "Content-Length": "2000" } });
    const error = await refusal(readBodyText(request, 1000));
    expect(error).toMatchObject({ status: 413, code: "body_too_large", message: t.errors.bodyTooLarge });
  });

  it("a chunked body is cut once its running total passes the cap, long before its end", async () => {
    const { request, counter } = streamed(1000, 1024);
    let pulledAtRefusal = 0;
    const error = await refusal(
      readBodyText(request, 10 * 1024).catch((thrown: unknown) => {
        pulledAtRefusal = counter.pulled;
        throw thrown;
      }),
    );
    expect(error.status).toBe(413);
    // 11 chunks pass 10 KiB: refused then, not after the 1000.
    expect(pulledAtRefusal).toBeLessThan(20);
    // The rest is read and thrown away (the client gets the answer, not a stalled connection).
    await expect.poll(() => counter.pulled).toBe(1000);
  });

  it("a body at the cap is read whole", async () => {
    const { request } = streamed(10, 1024);
    expect((await readBodyText(request, 10 * 1024)).length).toBe(10 * 1024);
  });
});

describe("JSON depth", () => {
  it(`counts arrays and objects inside one another, not brackets in strings`, () => {
    expect(jsonDepthExceeds(`${"[".repeat(64)}${"]".repeat(64)}`, 64)).toBe(false);
    expect(jsonDepthExceeds(`${"[".repeat(65)}${"]".repeat(65)}`, 64)).toBe(true);
    expect(jsonDepthExceeds(`{"a":{"b":[1,{"c":2}]}}`, 3)).toBe(true);
    expect(jsonDepthExceeds(`{"a":"${"[{".repeat(100)}","b":"\\"[[["}`, 1)).toBe(false);
  });

  it("a body nested 10 000 deep is a 400 with the pt-BR message", async () => {
    const request = new Request("http://localhost/", { method: "POST", body: `{"body":${"[".repeat(10_000)}${"]".repeat(10_000)}}` });
    const error = await refusal(readJsonBody(request, 1024 * 1024, 64));
    expect(error).toMatchObject({ status: 400, code: "json_too_deep", message: t.api.jsonTooDeep(64) });
  });
});
