import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import readline from "node:readline";
import { terminal } from "#app/i18n/pt-BR.ts";
import { terminalText } from "./terminal-text.ts";

/**
 * Reading an export of the original product's Firestore database, in the shapes the common export tools write:
 *
 * - a JSON object of collections → { documentId: fields } (`firestore-export-import`);
 * - the same under `__collections__`, each document possibly holding its own `__collections__` (subcollections,
 *   ignored here) and typed values such as `{"__datatype__":"timestamp","value":{…}}` (`node-firestore-import-export`);
 * - NDJSON, one `{"path":"news/{id}","data":{…}}` per line (read line by line, never whole).
 *
 * A folder is every `.json`, `.ndjson` and `.jsonl` file in it, in name order.
 */

/** One document of the export, or one line saying what could not be read (pt-BR, for the operator). */
export type ExportEntry = { type: "document"; collection: string; id: string; data: Record<string, unknown> } | { type: "problem"; message: string };

const EXPORT_EXTENSIONS = new Set([".json", ".ndjson", ".jsonl"]);

export class ExportReadError extends Error {
  override name = "ExportReadError";
}

/** The export files under `input` (the file itself, or the export files of a folder). */
export async function exportFiles(input: string): Promise<string[]> {
  let stat;
  try {
    stat = await fs.stat(input);
  } catch {
    throw new ExportReadError(terminal.import.export.notFound(input));
  }
  if (stat.isFile()) return [input];
  if (!stat.isDirectory()) throw new ExportReadError(terminal.import.export.notFileOrFolder(input));
  const names = (await fs.readdir(input, { withFileTypes: true }))
    .filter((entry) => entry.isFile() && EXPORT_EXTENSIONS.has(path.extname(entry.name).toLowerCase()))
    .map((entry) => entry.name)
    .sort();
  if (!names.length) throw new ExportReadError(terminal.import.export.noExportFiles(input));
  return names.map((name) => path.join(input, name));
}

/** Every document of every export file under `input`, as it is read. */
export async function* readFirestoreExport(input: string): AsyncGenerator<ExportEntry> {
  for (const file of await exportFiles(input)) {
    const extension = path.extname(file).toLowerCase();
    if (extension === ".ndjson" || extension === ".jsonl") yield* readNdjson(file);
    else yield* readJson(file);
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

async function* readJson(file: string): AsyncGenerator<ExportEntry> {
  const name = path.basename(file);
  let parsed: unknown;
  try {
    parsed = JSON.parse((await fs.readFile(file, "utf8")).replace(/^\uFEFF/, ""));
  } catch (error) {
    yield { type: "problem", message: terminal.import.export.invalidJson(name, error instanceof Error ? error.message : String(error)) };
    return;
  }
  if (!isObject(parsed)) {
    yield { type: "problem", message: terminal.import.export.notCollections(name) };
    return;
  }
  const collections = "__collections__" in parsed ? parsed.__collections__ : parsed;
  if (!isObject(collections)) {
    yield { type: "problem", message: terminal.import.export.collectionsNotObject(name) };
    return;
  }
  for (const [collection, documents] of Object.entries(collections)) {
    if (!isObject(documents)) {
      yield { type: "problem", message: terminal.import.export.collectionNotObject(name, collection) };
      continue;
    }
    for (const [id, data] of Object.entries(documents)) {
      if (!isObject(data)) {
        yield { type: "problem", message: terminal.import.export.documentNotObject(`${collection}/${printable(id)}`) };
        continue;
      }
      yield { type: "document", collection, id, data };
    }
  }
}

async function* readNdjson(file: string): AsyncGenerator<ExportEntry> {
  const name = path.basename(file);
  const lines = readline.createInterface({ input: createReadStream(file, { encoding: "utf8" }), crlfDelay: Infinity });
  let number = 0;
  for await (const raw of lines) {
    number++;
    // A byte order mark some editors put at the start of the file.
    const line = number === 1 ? raw.replace(/^\uFEFF/, "") : raw;
    if (!line.trim()) continue;
    const where = `${name}:${number}`;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      yield { type: "problem", message: terminal.import.export.lineNotJson(where) };
      continue;
    }
    if (!isObject(parsed) || typeof parsed.path !== "string" || !isObject(parsed.data)) {
      yield { type: "problem", message: terminal.import.export.lineShape(where) };
      continue;
    }
    const segments = parsed.path.replace(/^\/+/, "").split("/");
    // A document of a subcollection (news/{id}/comentarios/{id}): not part of what is imported.
    if (segments.length > 2 && segments.length % 2 === 0) continue;
    const [collection, id] = segments;
    if (segments.length !== 2 || !collection || !id) {
      yield { type: "problem", message: terminal.import.export.badPath(where, printable(parsed.path)) };
      continue;
    }
    yield { type: "document", collection, id, data: parsed.data };
  }
}

/**
 * A Firestore timestamp as an ISO-8601 UTC string (millisecond precision), or null when it is missing or not one:
 * `{_seconds, _nanoseconds}`, `{seconds, nanoseconds}`, the `{"__datatype__": "timestamp", "value": …}` wrapper of
 * either, or an ISO-8601 string with a time and a zone. Years outside 1900–9999 are refused (the columns sort as text).
 */
export function parseTimestamp(value: unknown): string | null {
  let date: Date | null = null;
  if (typeof value === "string") {
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/.test(value.trim())) return null;
    date = new Date(value.trim());
  } else if (isObject(value)) {
    if (value.__datatype__ !== undefined) return value.__datatype__ === "timestamp" ? parseTimestamp(value.value) : null;
    const seconds = value._seconds ?? value.seconds;
    const nanoseconds = value._nanoseconds ?? value.nanoseconds ?? 0;
    if (!Number.isInteger(seconds) || !Number.isInteger(nanoseconds)) return null;
    if ((nanoseconds as number) < 0 || (nanoseconds as number) > 999_999_999) return null;
    date = new Date((seconds as number) * 1000 + Math.floor((nanoseconds as number) / 1_000_000));
  }
  if (!date || Number.isNaN(date.getTime())) return null;
  const year = date.getUTCFullYear();
  return year >= 1900 && year <= 9999 ? date.toISOString() : null;
}

/** An id or path as it may be shown on one line of the terminal: no control or format characters, not too long. */
export function printable(text: string): string {
  const clean = terminalText(text);
  return clean.length > 80 ? `${clean.slice(0, 77)}…` : clean;
}
