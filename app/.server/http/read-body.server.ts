import { t } from "#app/i18n/pt-BR.ts";
import { JSON_MAX_DEPTH } from "#app/lib/limits.ts";
import { AppError } from "#app/.server/errors.ts";

/**
 * The one way a request body without a file is read (JSON and urlencoded, on every route): at most `maxBytes`, counted
 * as it arrives. A Content-Length over the cap is refused before a byte is read, a chunked body as soon as its running
 * total passes it; either way the answer is a 413 in pt-BR and what is left of the body is read and thrown away as it
 * comes (nothing kept; the client reads the answer instead of a connection reset, and server/slow-body.ts closes the
 * connection if it keeps coming 15 s after the answer). Uploads (multipart with a file) have their own streaming
 * parser and limits (app/.server/media/upload.server.ts).
 */
export async function readBodyText(request: Request, maxBytes: number): Promise<string> {
  if (Number(request.headers.get("Content-Length") ?? 0) > maxBytes) {
    discardRest(request.body?.getReader());
    throw bodyTooLarge();
  }
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      chunks.length = 0;
      discardRest(reader);
      throw bodyTooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size).toString("utf8");
}

/**
 * A JSON body read with `readBodyText`: 400 (`invalid_json`, pt-BR) when it is not JSON or when its arrays and objects
 * nest deeper than `maxDepth` (checked on the text, before parsing: code that walks the value, JSON.stringify
 * included, would otherwise overflow the stack on a body nested 10 000 deep).
 */
export async function readJsonBody(request: Request, maxBytes: number, maxDepth = JSON_MAX_DEPTH): Promise<unknown> {
  const text = await readBodyText(request, maxBytes);
  if (jsonDepthExceeds(text, maxDepth)) throw new AppError("json_too_deep", t.api.jsonTooDeep(maxDepth), 400);
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError("invalid_json", t.api.invalidJson, 400);
  }
}

/** An urlencoded form body read with `readBodyText`, as its fields. */
export async function readFormBody(request: Request, maxBytes: number): Promise<URLSearchParams> {
  return new URLSearchParams(await readBodyText(request, maxBytes));
}

/**
 * Whether the JSON text opens more than `maxDepth` arrays and objects inside one another (brackets inside strings do
 * not count). One pass, no recursion, so any text can be checked.
 */
export function jsonDepthExceeds(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c)
        i++; // backslash: the next character is escaped
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      if (++depth > maxDepth) return true;
    } else if (code === 0x5d || code === 0x7d) depth--;
  }
  return false;
}

function bodyTooLarge(): AppError {
  return new AppError("body_too_large", t.errors.bodyTooLarge, 413);
}

/** Reads the rest of a refused body without keeping it. */
function discardRest(reader: ReadableStreamDefaultReader<Uint8Array> | undefined): void {
  if (!reader) return;
  void (async () => {
    for (;;) if ((await reader.read()).done) return;
  })().catch(() => undefined);
}
