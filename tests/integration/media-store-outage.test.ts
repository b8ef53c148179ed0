import fs from "node:fs";
import net from "node:net";
import { describe, expect, it } from "vitest";
import { handleNewsFormAction } from "#app/.server/http/news-form-action.server.ts";
import { recordingLogger } from "#tests/factories/recording-logger.ts";
import { t } from "#app/i18n/newsroom.ts";
import { action as mediaAction } from "#app/routes/api/media.ts";
import { action as newsItemAction } from "#app/routes/api/news-item.ts";
import { action as newsAction } from "#app/routes/api/news.ts";
import { action as sponsorsAction } from "#app/routes/api/sponsors.ts";
import { adminSessionCookie, routeContextOf } from "#tests/factories/route-context.ts";
import { makeTestImage } from "#tests/factories/news.ts";
import { countRows, TEST_DATABASE } from "#tests/factories/services.ts";
import { type TestServices, useTestServices } from "#tests/factories/use-services.ts";
import { startS3Server } from "#tests/storage/s3-server.ts";
import { testsActor } from "#tests/factories/actors.ts";

/**
 * A media store outage never blocks text: with a real S3 server (s3rver) stopped, the newsroom still creates a
 * text-only story, corrects a title, unpublishes and deletes (the media of a deleted story is left to the orphan
 * sweeper); only a save that carries a new file is refused, naming S3, with nothing written and the typed text kept.
 * Both databases.
 */
const SITE = "http://127.0.0.1:4321";
const open = useTestServices("eef-store-outage-", { SITE_URL: SITE });

type RouteAction = (args: never) => Promise<unknown>;

/** Calls an API route's action as React Router does; a thrown Response is the answer. */
async function call(action: RouteAction, services: TestServices, request: Request, params: Record<string, string> = {}): Promise<Response> {
  const args = { request, context: routeContextOf(services), params, url: new URL(request.url), pattern: new URL(request.url).pathname };
  try {
    return (await action(args as never)) as Response;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

function json(cookie: string, method: string, path: string, body: unknown): Request {
  return new Request(`${SITE}${path}`, { method, headers: { Cookie: cookie, "Content-Type": "application/json" }, body: JSON.stringify(body) });
}

function multipart(cookie: string, method: string, path: string, fields: Record<string, string>, file: { field: string; bytes: Buffer }): Request {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append(file.field, new Blob([new Uint8Array(file.bytes)], { type: "image/jpeg" }), "foto.jpg");
  return new Request(`${SITE}${path}`, { method, headers: { Cookie: cookie }, body: form });
}

interface ErrorAnswer {
  error: { code: string; message: string };
}

const story = { title: "Final do estadual", subtitle: "Decisão no domingo", fullContent: "Texto da notícia.", category: "Futebol" };

describe(`S3 down: text goes on, only new files are refused naming S3 (${TEST_DATABASE})`, () => {
  it("create, title correction, unpublish and delete work; a save with a file, a body image and the no-JavaScript form are refused with the S3 message", async () => {
    const s3 = await startS3Server(["midia-fora"]);
    let stopped = false;
    try {
      const { log, lines } = recordingLogger();
      const services = await open(s3.env("midia-fora"), { log });
      const cookie = await adminSessionCookie(services, "10.3.2.1");

      // While S3 answers: a story with a picture (its objects are in the bucket).
      const withPicture = await call(
        newsAction,
        services,
        multipart(
          cookie,
          "POST",
          "/api/news",
          { ...story, mediaDescription: "Estádio lotado" },
          { field: "media", bytes: await makeTestImage(800, 450) },
        ),
      );
      expect(withPicture.status, await withPicture.clone().text()).toBe(201);
      const pictured = (await withPicture.json()) as { id: string };
      expect(await countRows(services, "media")).toBe(1);

      await s3.stop();
      stopped = true;

      // A save with a new file right away (the store's last "connected" is still trusted for 10 s): the write to the
      // bucket fails and the save is refused, naming S3; nothing of it is written.
      const uploadsBefore = fs.readdirSync(services.config.media.uploadTmpDir);
      const refusedFile = await call(
        newsItemAction,
        services,
        multipart(
          cookie,
          "PATCH",
          `/api/news/${pictured.id}`,
          { title: "Título que não entra", mediaDescription: "Outra foto" },
          { field: "media", bytes: await makeTestImage(640, 360) },
        ),
        { id: pictured.id },
      );
      expect(refusedFile.status).toBe(409);
      const refusal = (await refusedFile.json()) as ErrorAnswer;
      expect(refusal.error).toEqual({ code: "storage_not_connected", message: t.storage.down.newsFile("S3") });
      expect(refusal.error.message).not.toBe(t.newsForm.driveRequired);
      expect(await services.store.isConnected()).toBe(false);

      // Text only: a new story, a title correction, an unpublish, all saved while S3 is down.
      const created = await call(newsAction, services, json(cookie, "POST", "/api/news", { ...story, title: "Nota sem foto", status: "published" }));
      expect(created.status, await created.clone().text()).toBe(201);
      const textOnly = (await created.json()) as { id: string; version: number };
      const corrected = await call(
        newsItemAction,
        services,
        json(cookie, "PATCH", `/api/news/${pictured.id}`, { title: "Final do estadual (corrigido)" }),
        {
          id: pictured.id,
        },
      );
      expect(corrected.status, await corrected.clone().text()).toBe(200);
      expect(await corrected.json()).toMatchObject({ id: pictured.id, version: 2, status: "published", media: "existing" });
      const unpublished = await call(
        newsItemAction,
        services,
        json(cookie, "PUT", `/api/news/${textOnly.id}`, { ...story, title: "Nota sem foto", unpublish: "on" }),
        { id: textOnly.id },
      );
      expect(unpublished.status, await unpublished.clone().text()).toBe(200);
      expect(await unpublished.json()).toMatchObject({ id: textOnly.id, status: "draft" });
      const rows = await services.database.db.selectFrom("news").select(["id", "title", "status", "version"]).orderBy("title").execute();
      expect(rows).toEqual([
        { id: pictured.id, title: "Final do estadual (corrigido)", status: "published", version: 2 },
        { id: textOnly.id, title: "Nota sem foto", status: "draft", version: 2 },
      ]);

      // Again with a file, now that the store is known to be down: refused before the file is processed.
      const refusedAgain = await call(
        newsAction,
        services,
        multipart(
          cookie,
          "POST",
          "/api/news",
          { ...story, title: "Com foto", mediaDescription: "Foto" },
          { field: "media", bytes: await makeTestImage(320, 180) },
        ),
      );
      expect(refusedAgain.status).toBe(409);
      expect(((await refusedAgain.json()) as ErrorAnswer).error.message).toBe(t.storage.down.newsFile("S3"));

      // An image for a story's body: refused, naming S3.
      const bodyImage = await call(
        mediaAction,
        services,
        multipart(cookie, "POST", "/api/media", {}, { field: "file", bytes: await makeTestImage(320, 180) }),
      );
      expect(bodyImage.status).toBe(409);
      expect(((await bodyImage.json()) as ErrorAnswer).error).toEqual({ code: "storage_not_connected", message: t.storage.down.bodyImage("S3") });

      // A sponsor's logo: refused, naming S3; no sponsor added.
      const sponsor = await call(
        sponsorsAction,
        services,
        multipart(cookie, "POST", "/api/sponsors", { name: "Loja do Bairro" }, { field: "image", bytes: await makeTestImage(200, 200) }),
      );
      expect(sponsor.status).toBe(409);
      expect(((await sponsor.json()) as ErrorAnswer).error).toEqual({ code: "storage_not_connected", message: t.storage.down.sponsor("S3") });
      expect(await countRows(services, "sponsors")).toBe(0);

      // The form without JavaScript: refused with the S3 message, and the page gets back what was typed.
      const form = new FormData();
      for (const [key, value] of Object.entries({ ...story, title: "Digitado sem JavaScript", mediaDescription: "Foto", status: "published" }))
        form.append(key, value);
      form.append("media", new Blob([new Uint8Array(await makeTestImage(320, 180))], { type: "image/jpeg" }), "foto.jpg");
      const answer = (await handleNewsFormAction(
        new Request(`${SITE}/edit-news/${pictured.id}`, { method: "POST", headers: { Cookie: cookie }, body: form }),
        routeContextOf(services),
        pictured.id,
      )) as unknown as {
        data: { error?: string; values?: Record<string, string> };
        init: { status: number };
      };
      expect(answer.init.status).toBe(409);
      expect(answer.data.error).toBe(t.newsForm.submitError(true, t.storage.down.newsFile("S3")));
      expect(answer.data.values).toMatchObject({ title: "Digitado sem JavaScript", fullContent: "Texto da notícia." });

      // Nothing of the refused saves was written; no temporary upload is left behind.
      expect(await countRows(services, "news")).toBe(2);
      expect(await countRows(services, "media")).toBe(1);
      expect(fs.readdirSync(services.config.media.uploadTmpDir)).toEqual(uploadsBefore);

      // Deleting the story with the picture: to the Lixeira, without asking the store.
      const deleted = await call(
        newsItemAction,
        services,
        new Request(`${SITE}/api/news/${pictured.id}`, { method: "DELETE", headers: { Cookie: cookie } }),
        {
          id: pictured.id,
        },
      );
      expect(deleted.status).toBe(204);
      expect(await countRows(services, "media")).toBe(1);
      // Erased for good: done; its files could not be removed and are left to the sweeper.
      const started = performance.now();
      expect(await services.newsEditor.bulkAction("erase", [pictured.id], testsActor)).toEqual({ changed: 1, unchanged: 0 });
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(await countRows(services, "news")).toBe(1);
      expect(await countRows(services, "media")).toBe(0);
      expect(lines.some((line) => line.msg.includes("the orphan sweeper will retry"))).toBe(true);
    } finally {
      if (!stopped) await s3.stop();
    }
  }, 60_000);
});

describe(`S3 that takes connections and never answers (${TEST_DATABASE})`, () => {
  it("a text save never waits for it, and deleting a story with a picture answers within seconds (the files are left to the sweeper)", async () => {
    const s3 = await startS3Server(["midia-muda"]);
    let stopped = false;
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => {
      sockets.add(socket);
      socket.on("error", () => undefined);
    });
    try {
      const { log, lines } = recordingLogger();
      const services = await open(s3.env("midia-muda"), { log });
      const cookie = await adminSessionCookie(services, "10.3.2.1");
      const created = await call(
        newsAction,
        services,
        multipart(cookie, "POST", "/api/news", { ...story, mediaDescription: "Torcida" }, { field: "media", bytes: await makeTestImage(800, 450) }),
      );
      expect(created.status, await created.clone().text()).toBe(201);
      const { id } = (await created.json()) as { id: string };

      // The bucket's address now takes connections and never answers (a hung service, not a refused port).
      await s3.stop();
      stopped = true;
      await new Promise<void>((resolve, reject) => {
        silent.once("error", reject);
        silent.listen(s3.port, "127.0.0.1", () => resolve());
      });

      let started = performance.now();
      const corrected = await call(newsItemAction, services, json(cookie, "PATCH", `/api/news/${id}`, { title: "Corrigido com o S3 mudo" }), { id });
      expect(corrected.status, await corrected.clone().text()).toBe(200);
      expect(performance.now() - started).toBeLessThan(1_000);

      const deleted = await call(newsItemAction, services, new Request(`${SITE}/api/news/${id}`, { method: "DELETE", headers: { Cookie: cookie } }), {
        id,
      });
      expect(deleted.status).toBe(204);
      started = performance.now();
      expect(await services.newsEditor.bulkAction("erase", [id], testsActor)).toEqual({ changed: 1, unchanged: 0 });
      expect(performance.now() - started).toBeLessThan(4_000);
      expect(await countRows(services, "news")).toBe(0);
      expect(await countRows(services, "media")).toBe(0);
      // The removal given up on is logged, for the sweeper to finish.
      await expect.poll(() => lines.some((line) => line.msg.includes("the orphan sweeper will retry")), { timeout: 20_000 }).toBe(true);
    } finally {
      for (const socket of sockets) socket.destroy();
      if (silent.listening) await new Promise<void>((resolve) => silent.close(() => resolve()));
      if (!stopped) await s3.stop();
    }
  }, 60_000);
});
