import { z } from "zod";

/**
 * Zod for code that also runs in the browser. Without `jitless`, zod probes `new Function("")` the first time it
 * parses an object, to compile a faster parser: the site's Content-Security-Policy has no 'unsafe-eval', so the
 * probe fails (zod falls back) but Chromium reports a violation on every admin form page. The forms are small; the
 * interpreted parser is fast enough.
 */
z.config({ jitless: true });

export { z };

export type FieldErrors = Partial<Record<string, string[]>>;

/** Field → messages, from a failed zod parse (issues without a field go under `form`). */
export function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const result: FieldErrors = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "form");
    const messages = result[key] ?? [];
    messages.push(issue.message);
    result[key] = messages;
  }
  return result;
}
