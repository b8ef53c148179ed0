import { t } from "#app/i18n/pt-BR.ts";
import { FORM_BODY_MAX_BYTES, NEWS_FIELD_MAX_BYTES, NEWS_SUBMISSION_MAX_BYTES } from "#app/lib/limits.ts";
import type { AppServices } from "#app/.server/app.server.ts";
import { AppError } from "#app/.server/errors.ts";
import {
  NEWS_MEDIA_RULES,
  type ParsedForm,
  PROFILE_PHOTO_RULES,
  parseUploadForm,
  SPONSOR_IMAGE_RULES,
  type UploadRules,
} from "#app/.server/media/upload.server.ts";
import { readFormBody, readJsonBody } from "./read-body.server.ts";

export { NEWS_MEDIA_RULES, SPONSOR_IMAGE_RULES };

/** Fields that are yes/no: the only ones a JSON body may send as true/false. */
const FLAG_FIELDS = new Set(["isHighlighted", "removeMedia"]);
/** Fields that are whole numbers: the only ones a JSON body may send as a number. */
const NUMBER_FIELDS = new Set(["version", "position"]);

/**
 * Reads a form submission: multipart (streamed, with the upload limits) or, for API clients, JSON / urlencoded
 * without a file, read as it arrives up to `maxBodyBytes` (FORM_BODY_MAX_BYTES unless the form says otherwise; 413
 * past it, app/.server/http/read-body.server.ts).
 */
export async function readSubmission(
  request: Request,
  options: { fileField: string; rules: UploadRules; tmpDir: string; maxFieldBytes?: number; maxBodyBytes?: number },
): Promise<ParsedForm> {
  const type = request.headers.get("Content-Type") ?? "";
  const maxBodyBytes = options.maxBodyBytes ?? FORM_BODY_MAX_BYTES;
  if (type.startsWith("multipart/form-data")) return parseUploadForm(request, options);
  if (type.startsWith("application/json")) return { fields: jsonFields(await readJsonObject(request, maxBodyBytes)), file: null };
  if (type.startsWith("application/x-www-form-urlencoded")) {
    const fields: Record<string, string> = {};
    for (const [key, value] of await readFormBody(request, maxBodyBytes)) fields[key] = value;
    return { fields, file: null };
  }
  throw new AppError("unsupported_media_type", t.api.unsupportedMediaType, 415);
}

/**
 * A JSON object sent by an API client: 415 unless the body says it is JSON, 413 past `maxBytes` (FORM_BODY_MAX_BYTES
 * unless given; declared or as it arrives), 400 unless it is an object nested at most JSON_MAX_DEPTH deep.
 */
export async function readJsonObject(request: Request, maxBytes = FORM_BODY_MAX_BYTES): Promise<Record<string, unknown>> {
  if (!(request.headers.get("Content-Type") ?? "").startsWith("application/json")) {
    throw new AppError("unsupported_media_type", t.api.unsupportedMediaType, 415);
  }
  const body = await readJsonBody(request, maxBytes);
  if (!body || typeof body !== "object" || Array.isArray(body)) throw new AppError("invalid_json", t.api.invalidJson, 400);
  return body as Record<string, unknown>;
}

/**
 * A JSON object's fields as a form's: text stays text, flags may be true/false and whole-number fields numbers, the
 * structured news body travels as its JSON text; anything else (a number as a title, an object) is refused, never
 * stored as its JSON text.
 */
export function jsonFields(body: Record<string, unknown>): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(body)) {
    if (typeof value === "string") fields[key] = value;
    else if (key === "body" && typeof value === "object" && value !== null) fields[key] = JSON.stringify(value);
    else if (typeof value === "boolean" && FLAG_FIELDS.has(key)) fields[key] = String(value);
    else if (typeof value === "number" && NUMBER_FIELDS.has(key) && Number.isSafeInteger(value)) fields[key] = String(value);
    else if (value !== null) throw new AppError("invalid_field_type", t.api.fieldType(key), 400);
  }
  return fields;
}

/**
 * A news submission (form or API): the optional `media` file under the news limits, long text fields allowed; JSON or
 * urlencoded up to NEWS_SUBMISSION_MAX_BYTES.
 */
export function readNewsSubmission(request: Request, { config }: Pick<AppServices, "config">): Promise<ParsedForm> {
  return readSubmission(request, {
    fileField: "media",
    rules: NEWS_MEDIA_RULES,
    tmpDir: config.media.uploadTmpDir,
    maxFieldBytes: NEWS_FIELD_MAX_BYTES,
    maxBodyBytes: NEWS_SUBMISSION_MAX_BYTES,
  });
}

/** A sponsor submission: the `image` file under the sponsor limits. */
export function readSponsorSubmission(request: Request, { config }: Pick<AppServices, "config">): Promise<ParsedForm> {
  return readSubmission(request, { fileField: "image", rules: SPONSOR_IMAGE_RULES, tmpDir: config.media.uploadTmpDir });
}

/** A profile submission (/perfil): the `photo` file under the profile photo's limits. */
export function readProfileSubmission(request: Request, { config }: Pick<AppServices, "config">): Promise<ParsedForm> {
  return readSubmission(request, { fileField: "photo", rules: PROFILE_PHOTO_RULES, tmpDir: config.media.uploadTmpDir });
}

/**
 * Runs `handle` (read the submission, check it, store the file) holding one of the admin's upload slots when the
 * request carries a file (multipart); JSON and urlencoded saves need none. When none is free the upload is refused
 * at once (UploadBusyError: 429 for this admin's own uploads, 503 for the site's, with Retry-After) and its body is
 * read and thrown away as it arrives, so the client gets the answer instead of a reset and nothing is kept.
 */
export async function withUploadSlot<T>(
  request: Request,
  adminId: string,
  { uploadSlots }: Pick<AppServices, "uploadSlots">,
  handle: () => Promise<T>,
): Promise<T> {
  if (!(request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data")) return handle();
  let release: () => void;
  try {
    release = uploadSlots.acquire(adminId);
  } catch (error) {
    drainBody(request);
    throw error;
  }
  try {
    return await handle();
  } finally {
    release();
  }
}

/** Reads a request body to its end without keeping it (the upload idle timeout still ends a stalled one). */
function drainBody(request: Request): void {
  if (!request.body || request.bodyUsed || request.body.locked) return;
  request.body.pipeTo(new WritableStream()).catch(() => {});
}

/** Runs `parse` on the fields; when it throws, the uploaded temp file is removed first. */
export async function withUploadCleanup<T>(form: ParsedForm, parse: (fields: Record<string, string>) => T): Promise<T> {
  try {
    return parse(form.fields);
  } catch (error) {
    await form.file?.cleanup();
    throw error;
  }
}
