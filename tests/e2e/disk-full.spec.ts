/**
 * The disk filling up under a running site. The data directory lives on a 16 MB tmpfs the test mounts (root only),
 * which a filler file fills to a chosen margin:
 * - an upload whose temporary file does not fit (news: POST /api/news, and the editor page's form);
 * - a save whose upload fits but whose stored image variants do not (sponsor, POST /api/sponsors), and the same
 *   through the sponsors admin page (what an editor sees);
 * - on SQLite the database is on that disk too: a text-only news save with no space left at all.
 * Each is refused with 507 and the pt-BR "sem espaço em disco" message (never a 500 or a hang), leaves no temporary
 * file, object or row behind, and the site keeps serving. Once the filler is removed the same uploads succeed.
 *
 * On SQLite and PostgreSQL (there the database is elsewhere, and the text save goes through). Needs `mount`
 * (root, or CAP_SYS_ADMIN): without it the test is skipped and says why.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Browser, type BrowserContext, expect, test } from "@playwright/test";
import { t } from "#app/i18n/newsroom.ts";
import { createAdmin, type TestAccount } from "#tests/factories/auth.ts";
import { expectConsistent, multipartBody, signInCookie, snapshot, storedObjects, temporaryFiles } from "./support/faults.ts";
import { makeNoisyJpeg, TEST_DATABASE, waitForHydration } from "./support/fixtures.ts";
import { type RunningSite, startSite } from "#tests/factories/site.ts";

const DISK_BYTES = 16 * 1024 * 1024;

/** Fills the filesystem of `dir` with `file` until a write fails, then gives back `leave` bytes. */
function fillDisk(file: string, leave: number): void {
  const fd = fs.openSync(file, "a");
  try {
    const chunk = Buffer.alloc(64 * 1024, 1);
    for (;;) {
      try {
        fs.writeSync(fd, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
        break;
      }
    }
    // Byte-sized writes for the last partial page.
    for (;;) {
      try {
        fs.writeSync(fd, chunk.subarray(0, 512));
      } catch {
        break;
      }
    }
    const size = fs.fstatSync(fd).size;
    fs.ftruncateSync(fd, Math.max(0, size - leave));
  } finally {
    fs.closeSync(fd);
  }
}

/** A browser context carrying the admin's session cookie. */
async function signedInContext(browser: Browser, url: string, cookie: string): Promise<BrowserContext> {
  const context = await browser.newContext();
  await context.addCookies(
    cookie.split("; ").map((pair) => {
      const [name, ...value] = pair.split("=");
      return { name: name!, value: value.join("="), url, httpOnly: true, sameSite: "Lax" as const };
    }),
  );
  return context;
}

function freeBytes(dir: string): number {
  const stats = fs.statfsSync(dir);
  return stats.bavail * stats.bsize;
}

test("disco cheio: envio e gravação recusados com mensagem clara, nada pela metade, o site segue no ar, e depois de liberar espaço o mesmo envio funciona", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), "eef-disk-"));
  const mount = spawnSync("mount", ["-t", "tmpfs", "-o", `size=${DISK_BYTES},mode=0700`, "tmpfs", mountPoint], { encoding: "utf8" });
  if (mount.status !== 0) {
    fs.rmSync(mountPoint, { recursive: true, force: true });
    test.skip(true, `não foi possível montar um tmpfs pequeno (${(mount.stderr || mount.error?.message || "").trim()}): precisa de root`);
    return;
  }
  const filler = path.join(mountPoint, "enchimento");
  let site: RunningSite | undefined;
  try {
    let admin!: TestAccount;
    site = await startSite({
      dataDir: path.join(mountPoint, "data"),
      setup: async (services) => {
        admin = await createAdmin(services, { password: "Senha-admin-1" });
      },
    });
    const url = site.url;
    const cookie = await signInCookie(url, admin.email, admin.password);
    const image = await makeNoisyJpeg(700, 450);
    expect(image.length).toBeGreaterThan(300_000);
    const post = (pathname: string, field: string, fields: Record<string, string> = {}) => {
      const body = multipartBody(fields, { field, name: "foto.jpg", type: "image/jpeg", data: image });
      return fetch(`${url}${pathname}`, {
        method: "POST",
        headers: { Origin: url, Cookie: cookie, "Content-Type": body.contentType },
        body: Buffer.concat([body.head, body.file, body.tail]),
        // A hang is a failure too.
        signal: AbortSignal.timeout(20_000),
      });
    };
    const newsFields = {
      title: "Notícia com foto",
      subtitle: "Enviada com o disco cheio.",
      fullContent: "Conteúdo.",
      category: "Futebol",
      mediaDescription: "Foto de teste.",
    };
    const before = await snapshot(site);
    const objectsBefore = storedObjects(site.dataDir);

    const expectRefused = async (response: Response, what: string) => {
      const text = await response.text();
      expect(response.status, `${what}: ${text.slice(0, 300)}`).toBe(507);
      expect(JSON.parse(text)).toEqual({ error: { code: "disk_full", message: t.errors.diskFull } });
    };
    const expectNothingLeft = async (what: string) => {
      expect(temporaryFiles(site!.dataDir), what).toEqual([]);
      expect(storedObjects(site!.dataDir), what).toEqual(objectsBefore);
      const now = await snapshot(site!);
      expect(now.news.length + now.sponsors.length + now.media.length, what).toBe(before.news.length + before.sponsors.length + before.media.length);
      for (const page of ["/", "/news-list", "/api/news", "/api/sponsors"])
        expect((await fetch(`${url}${page}`)).status, `${what}: ${page}`).toBe(200);
    };

    // 1. The upload itself: not even the temporary file fits.
    fillDisk(filler, 32 * 1024);
    expect(freeBytes(mountPoint)).toBeLessThan(image.length / 2);
    await expectRefused(await post("/api/news", "media", newsFields), "notícia com o disco cheio");
    await expectNothingLeft("notícia com o disco cheio");

    // …and in the editor: the message in the error banner, and what was typed is still there.
    const editor = await signedInContext(browser, url, cookie);
    try {
      const page = await editor.newPage();
      await page.goto(`${url}/add-news`);
      await waitForHydration(page);
      await page.getByLabel("Título", { exact: true }).fill(newsFields.title);
      await page.getByLabel("Subtítulo", { exact: true }).fill(newsFields.subtitle);
      await page.getByLabel("Conteúdo completo", { exact: true }).fill(newsFields.fullContent);
      await page.getByLabel("Categoria", { exact: true }).fill(newsFields.category);
      await page.locator('input[type="file"][name="media"]').setInputFiles({ name: "foto.jpg", mimeType: "image/jpeg", buffer: image });
      await page.getByLabel(t.newsForm.mediaDescription, { exact: true }).fill(newsFields.mediaDescription);
      await page.getByRole("button", { name: t.newsForm.submitCreate, exact: true }).click();
      await expect(page.getByTestId("banner-error")).toContainText(t.errors.diskFull, { timeout: 20_000 });
      await expect(page.getByLabel("Título", { exact: true })).toHaveValue(newsFields.title);
      await page.goto("about:blank");
    } finally {
      await editor.close();
    }
    await expectNothingLeft("notícia pelo editor com o disco cheio");

    // 2. The save: the upload fits, its stored variants do not (sponsor logo).
    fs.rmSync(filler);
    fillDisk(filler, image.length + 96 * 1024);
    await expectRefused(await post("/api/sponsors", "image", { name: "Patrocinador do disco cheio" }), "patrocinador com o disco quase cheio");
    await expectNothingLeft("patrocinador com o disco quase cheio");

    // …and through the admin page, where an editor sees the message.
    const context = await signedInContext(browser, url, cookie);
    try {
      const page = await context.newPage();
      await page.goto(`${url}/SponsorManager`);
      await waitForHydration(page);
      const picture = path.join(mountPoint, "..", `${path.basename(mountPoint)}-logo.jpg`);
      fs.writeFileSync(picture, image);
      try {
        await page.locator('input[type="file"]').setInputFiles(picture);
        await page.getByLabel(t.sponsors.nameLabel, { exact: true }).fill("Patrocinador do disco cheio");
        const answer = page.waitForResponse((response) => response.request().method() === "POST");
        await page.getByRole("button", { name: t.sponsors.add, exact: true }).click();
        expect((await answer).status()).toBe(507);
        await expect(page.getByText(t.errors.diskFull)).toBeVisible();
        await page.goto("about:blank");
      } finally {
        fs.rmSync(picture, { force: true });
      }
    } finally {
      await context.close();
    }
    await expectNothingLeft("patrocinador pelo formulário");

    // 3. A text-only save with no space at all: on SQLite the database cannot grow (refused the same way, or saved
    //    when SQLite still has room in its files); on PostgreSQL the database is elsewhere and it is saved.
    fs.rmSync(filler);
    fillDisk(filler, 0);
    const text = await fetch(`${url}/api/news`, {
      method: "POST",
      headers: { Origin: url, Cookie: cookie, "Content-Type": "application/json" },
      body: JSON.stringify({ title: "Só texto", subtitle: "Sem espaço em disco.", fullContent: "x".repeat(90_000) }),
      signal: AbortSignal.timeout(20_000),
    });
    if (TEST_DATABASE === "postgres") expect(text.status).toBe(201);
    else if (text.status !== 201) await expectRefused(text, "notícia só texto com o disco cheio");
    test.info().annotations.push({ type: "texto com disco cheio", description: String(text.status) });
    for (const page of ["/", "/news-list", "/api/news"]) expect((await fetch(`${url}${page}`)).status, page).toBe(200);

    // 4. Space freed: the same uploads go through, and everything is whole.
    fs.rmSync(filler);
    expect((await post("/api/news", "media", newsFields)).status).toBe(201);
    expect((await post("/api/sponsors", "image", { name: "Patrocinador do disco cheio" })).status).toBe(201);
    const after = await expectConsistent(site);
    expect(after.sponsors).toHaveLength(before.sponsors.length + 1);
    expect(after.news.filter((item) => item.media_id)).toHaveLength(before.news.filter((item) => item.media_id).length + 1);
    expect(site.logs()).toMatch(/disk_full|sem espaço/);
  } finally {
    if (site) {
      await test.info().attach("log do servidor", { body: site.logs(), contentType: "text/plain" });
      fs.rmSync(filler, { force: true });
      await site.stop();
    }
    const unmounted = spawnSync("umount", [mountPoint], { encoding: "utf8" });
    if (unmounted.status !== 0) spawnSync("umount", ["-l", mountPoint]);
    fs.rmSync(mountPoint, { recursive: true, force: true });
  }
});
