/**
 * Uploads handled at the same time are capped per admin (UPLOADS_PER_ADMIN) and in all (UPLOADS_TOTAL), against the
 * real server: uploads held open mid-body take the slots; the next one is refused at once with the pt-BR message,
 * 429 (the admin's own) or 503 (the site's) and Retry-After, and the client reads that answer (no reset) even while
 * it is still sending its file; a save without a file is never refused; a slot comes back when its upload ends,
 * whether it finished or the client went away.
 */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { createAdmin } from "#tests/factories/auth.ts";
import { expect, makeNoisyJpeg, SESSION_COOKIE, signInAsAdmin, t, test, withSiteServices } from "./support/fixtures.ts";
import type { RunningSite } from "#tests/factories/site.ts";

const BOUNDARY = "----limite-de-envios";

/** A news form with a `media` file, as multipart bytes. */
function newsForm(title: string, image: Buffer): Buffer {
  const fields = { title, subtitle: "Subtítulo", fullContent: "Texto.", category: "Futebol", mediaDescription: "Foto de teste." };
  const parts = Object.entries(fields).map(([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  return Buffer.concat([
    Buffer.from(
      `${parts.join("")}--${BOUNDARY}\r\nContent-Disposition: form-data; name="media"; filename="foto.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    ),
    image,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: string;
}

/**
 * Starts a POST of `body` to /api/news as `cookie`, sending only its first `sentBytes` until `finish()` (or `abort()`,
 * which drops the connection). `answer` resolves with the server's complete answer.
 */
function startUpload(site: RunningSite, cookie: string, body: Buffer, sentBytes = body.length) {
  const request = http.request(`${site.url}/api/news`, {
    method: "POST",
    headers: {
      cookie,
      origin: site.url,
      "content-type": `multipart/form-data; boundary=${BOUNDARY}`,
      "content-length": body.length,
    },
  });
  const answer = new Promise<Answer>((resolve, reject) => {
    request.once("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.once("end", () =>
        resolve({ status: response.statusCode ?? 0, retryAfter: response.headers["retry-after"], body: Buffer.concat(chunks).toString("utf8") }),
      );
      response.once("error", reject);
    });
    request.once("error", reject);
  });
  request.write(body.subarray(0, sentBytes));
  if (sentBytes >= body.length) request.end();
  return {
    answer,
    finish: () => request.end(body.subarray(sentBytes)),
    abort: () => request.destroy(),
  };
}

/** Uploads the server is receiving now: their temporary files (made when the file part begins, slot in hand). */
function receiving(site: RunningSite): number {
  const dir = path.join(site.dataDir, "tmp", "uploads");
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => name.endsWith(".part")).length : 0;
}

async function sessionCookie(site: RunningSite, browser: import("@playwright/test").Browser, account?: Awaited<ReturnType<typeof createAdmin>>) {
  const context = await browser.newContext();
  await signInAsAdmin(context, site, account);
  const session = (await context.cookies()).find((cookie) => cookie.name === SESSION_COOKIE)!;
  await context.close();
  return `${SESSION_COOKIE}=${session.value}`;
}

test("envios em paralelo limitados por admin (429) e no total (503), com Retry-After e a mensagem em português; a vaga volta quando o envio termina", async ({
  launchSite,
  browser,
}) => {
  const site = await launchSite({ env: { UPLOADS_PER_ADMIN: "1", UPLOADS_TOTAL: "2", LOGIN_RATE_LIMIT: "1000" } });
  const [adminB, adminC] = await withSiteServices(site, async (services) => [
    await createAdmin(services, { password: "Senha-admin-b1" }),
    await createAdmin(services, { password: "Senha-admin-c1" }),
  ]);
  const cookieA = await sessionCookie(site, browser);
  const cookieB = await sessionCookie(site, browser, adminB);
  const cookieC = await sessionCookie(site, browser, adminC);
  // A picture of a few hundred kilobytes: the refused requests are still sending it when the answer comes.
  const image = await makeNoisyJpeg(800, 600);
  expect(image.length).toBeGreaterThan(200_000);

  // A's first upload is held mid-file: A has no slot left.
  const heldA = startUpload(site, cookieA, newsForm("Envio de A", image), 1000);
  await expect.poll(() => receiving(site)).toBe(1);
  const refusedA = await startUpload(site, cookieA, newsForm("Segundo envio de A", image)).answer;
  expect(refusedA.status, refusedA.body).toBe(429);
  expect(refusedA.retryAfter).toBe("10");
  expect(JSON.parse(refusedA.body)).toEqual({ error: { code: "upload_busy_admin", message: t.upload.busyAdmin(10) } });

  // A save without a file takes no slot.
  const plain = await fetch(`${site.url}/api/news`, {
    method: "POST",
    headers: { cookie: cookieA, origin: site.url, "content-type": "application/json" },
    body: JSON.stringify({ title: "Sem arquivo", subtitle: "Sub", fullContent: "Texto", category: "Geral" }),
  });
  expect(plain.status, await plain.clone().text()).toBe(201);

  // B takes the site's last slot: C is refused with the site's message.
  const heldB = startUpload(site, cookieB, newsForm("Envio de B", image), 1000);
  await expect.poll(() => receiving(site)).toBe(2);
  const refusedC = await startUpload(site, cookieC, newsForm("Envio de C", image)).answer;
  expect(refusedC.status).toBe(503);
  expect(refusedC.retryAfter).toBe("15");
  expect(JSON.parse(refusedC.body)).toEqual({ error: { code: "upload_busy", message: t.upload.busySite(15) } });

  // A's held upload completes normally; B's client goes away mid-file. Both slots come back.
  heldA.finish();
  expect((await heldA.answer).status).toBe(201);
  heldB.abort();
  await expect(heldB.answer).rejects.toThrow();
  await expect.poll(() => receiving(site)).toBe(0);
  const afterC = await startUpload(site, cookieC, newsForm("Envio de C depois", image)).answer;
  expect(afterC.status, afterC.body).toBe(201);
  const again = await startUpload(site, cookieA, newsForm("Terceiro envio de A", image)).answer;
  expect(again.status, again.body).toBe(201);

  // Every accepted upload is there, none of the refused ones.
  const titles = ((await (await fetch(`${site.url}/api/news`)).json()) as { news: Array<{ title: string }> }).news.map((item) => item.title).sort();
  expect(titles).toEqual(["Envio de A", "Envio de C depois", "Sem arquivo", "Terceiro envio de A"]);
});
