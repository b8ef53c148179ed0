/**
 * Helpers for a browser page of the site: waiting for hydration, opening a path, telling a client-side navigation
 * from a reload, watching picked files and slowing uploads.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, type Locator, type Page, type Response } from "@playwright/test";
import type { RunningSite } from "#tests/factories/site.ts";

/** Waits until React has hydrated the page (the root sets `data-hydrated` on <html>). */
export async function waitForHydration(page: Page): Promise<void> {
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
}

/** Opens `path` on `site`, waits for hydration and returns the navigation response. */
export async function openPage(page: Page, site: RunningSite, path: string): Promise<Response> {
  const response = await page.goto(site.url + path);
  if (!response) throw new Error(`Sem resposta para ${path}`);
  await waitForHydration(page);
  return response;
}

/**
 * The live badge of the story an article page shows, beside its title (the cards of other stories on the page, under
 * "Leia também", have badges of their own).
 */
export const storyBadge = (page: Page): Locator =>
  page
    .locator("header")
    .filter({ has: page.getByRole("heading", { level: 1 }) })
    .getByTestId("live-badge");

/** Sets `window.__marker` on the page; `expectNoReload` checks it survived (no full navigation happened). */
export async function markPage(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { __marker: number }).__marker = 1;
  });
}

export async function expectNoReload(page: Page): Promise<void> {
  expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker), "a página não foi recarregada").toBe(1);
}

/**
 * Records, on this page, the name, type and size of every file picked in any file input, at the moment it is
 * picked (the page may clear the input right after, as it does for a refused file). Read with `lastPickedFile`.
 */
export async function watchPickedFiles(page: Page): Promise<void> {
  await page.evaluate(() => {
    document.addEventListener(
      "change",
      (event) => {
        const file = (event.target as HTMLInputElement).files?.[0];
        (window as unknown as { __picked: unknown }).__picked = file ? { name: file.name, type: file.type, size: file.size } : null;
      },
      true,
    );
  });
}

export function lastPickedFile(page: Page): Promise<{ name: string; type: string; size: number } | null> {
  return page.evaluate(() => (window as unknown as { __picked?: { name: string; type: string; size: number } | null }).__picked ?? null);
}

/**
 * Slows this page's uploads to `bytesPerSecond` with Chromium's own network emulation (DevTools protocol), so a
 * real upload's progress can be watched. Nothing is mocked: the bytes still go to the real server. Returns a
 * function that lifts the limit.
 */
export async function throttleUploads(page: Page, bytesPerSecond: number): Promise<() => Promise<void>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: bytesPerSecond });
  return async () => {
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await cdp.detach();
  };
}

/**
 * Collects CSP violations two ways, across navigations: the DOM event (any directive, reported to the test through
 * a binding) and Chromium's console report. Each DOM report reads `<directive> <blocked URI> <page path>`.
 */
export async function watchViolations(page: Page): Promise<string[]> {
  const found: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) found.push(message.text());
  });
  await page.exposeBinding("__reportCsp", (_source, violation: string) => {
    found.push(violation);
  });
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) =>
      (window as unknown as { __reportCsp(v: string): void }).__reportCsp(`${event.violatedDirective} ${event.blockedURI} ${location.pathname}`),
    );
  });
  return found;
}

/**
 * The news form's body: the rich-text editor (its editable area, named "Conteúdo completo"). Waiting for it waits
 * for the editor's chunk, which loads after hydration (the textarea that stands in for it until then is the
 * no-JavaScript form's).
 */
export function bodyEditor(page: Page): Locator {
  return page.getByTestId("body-editor");
}

/**
 * Types `text` into the body editor in place of what it holds, as a reporter would: a blank line is Enter (a new
 * paragraph), a single line break Shift+Enter (a line break in the paragraph).
 */
export async function fillBody(page: Page, text: string): Promise<void> {
  await fillEditor(page, bodyEditor(page), text);
}

/** `fillBody` for another rich-text editor of the page (`editor`: its editable area), such as the live composer's. */
export async function fillEditor(page: Page, editor: Locator, text: string): Promise<void> {
  await editor.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.press("Delete");
  const paragraphs = text.split(/\n{2,}/);
  for (const [index, paragraph] of paragraphs.entries()) {
    if (index > 0) await page.keyboard.press("Enter");
    for (const [lineIndex, line] of paragraph.split("\n").entries()) {
      if (lineIndex > 0) await page.keyboard.press("Shift+Enter");
      if (line !== "") await page.keyboard.insertText(line);
    }
  }
}

/**
 * Runs axe on the current page; fails listing every violation of the given impacts (serious or critical unless told),
 * and when axe checked nothing.
 */
export async function expectNoSeriousViolations(page: Page, label: string, impacts = ["serious", "critical"]) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((violation) => impacts.includes(violation.impact ?? ""));
  const report = serious
    .map(
      (violation) =>
        `[${violation.impact}] ${violation.id}: ${violation.help}\n` +
        violation.nodes.map((node) => `    ${node.target.join(" ")}\n      ${node.failureSummary?.replace(/\n/g, "\n      ")}`).join("\n"),
    )
    .join("\n");
  expect(serious, `Violações de acessibilidade em ${label}:\n${report}`).toEqual([]);
  // axe really ran and checked something.
  expect(results.passes.length).toBeGreaterThan(0);
}

/** `expectNoSeriousViolations` for every violation axe reports, whatever its impact (minor and moderate too). */
export function expectNoViolations(page: Page, label: string) {
  return expectNoSeriousViolations(page, label, ["minor", "moderate", "serious", "critical"]);
}
