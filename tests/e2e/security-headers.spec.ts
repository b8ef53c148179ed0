/**
 * Security headers on every answer, and a Content-Security-Policy that lets the site's own scripts run and nothing
 * else:
 * - every route of app/routes.ts (a route added later is covered automatically; it needs a sample path below),
 *   anonymous and as an admin, plus assets, media and cached pages: the fixed headers and the policy's directives;
 * - the inline scripts of each HTML answer carry that answer's nonce (rendered pages) or are listed by hash (pages
 *   from the page cache, and every page a shared cache in front may store: the search, a 404, every public page
 *   without the page cache), and two rendered answers never share a nonce;
 * - no answer a shared cache (a CDN, Varnish) may store (Cache-Control neither `private` nor `no-store`) names a
 *   nonce in its policy: every reader of the stored copy would share it;
 * - in Chromium, which enforces the policy: no violation on the public pages (cache miss and hit), the sign-in page
 *   and the admin pages, while React hydrates and client-side interactions work.
 */
import { createHash } from "node:crypto";
import routes from "#app/routes.ts";
import { createAdmin, type TestAccount } from "#tests/factories/auth.ts";
import { createNews } from "#tests/factories/news.ts";
import { expect, openPage, SESSION_COOKIE, signInAsAdmin, t, test, waitForHydration, watchViolations } from "./support/fixtures.ts";

const FIXED = {
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
};

/** The directives every answer's policy has, exactly (on this site: local media, no Google). */
const EXACT_DIRECTIVES = {
  "default-src": "'self'",
  "style-src": "'self' 'unsafe-inline'",
  "img-src": "'self' data: blob:",
  "media-src": "'self' data: blob:",
  "font-src": "'self'",
  "connect-src": "'self'",
  // The players of embedded posts (YouTube without cookies, Instagram, X, TikTok), loaded only after a click.
  "frame-src": "https://www.youtube-nocookie.com https://www.instagram.com https://platform.twitter.com https://www.tiktok.com",
  "object-src": "'none'",
  "base-uri": "'self'",
  "form-action": "'self'",
  "frame-ancestors": "'none'",
};

// ------------------------------------------------------------------------------------------ the route table

interface RouteEntry {
  path?: string;
  index?: boolean;
  file: string;
  children?: RouteEntry[];
}

function patterns(entries: RouteEntry[], parent = ""): string[] {
  return entries.flatMap((entry) => {
    const pattern = [parent, entry.path ?? ""].filter(Boolean).join("/");
    const own = entry.path !== undefined || entry.index ? [pattern] : [];
    return [...own, ...patterns(entry.children ?? [], pattern)];
  });
}

/** A path to request for each route pattern (`:id` and `*` filled in). */
function samplePath(pattern: string, ids: { article: string; media: string }): string {
  const samples: Record<string, string> = {
    "article/:id/:slug?": `/article/${ids.article}`,
    "edit-news/:id": `/edit-news/${ids.article}`,
    "edit-news/:id/historico": `/edit-news/${ids.article}/historico`,
    "api/news/:id": `/api/news/${ids.article}`,
    "api/news/:id/autosave": `/api/news/${ids.article}/autosave`,
    "api/news/:id/return": `/api/news/${ids.article}/return`,
    "api/news/:id/media-focus": `/api/news/${ids.article}/media-focus`,
    "api/news/:id/updates": `/api/news/${ids.article}/updates`,
    "api/news/:id/updates/:updateId": `/api/news/${ids.article}/updates/nao-existe`,
    "api/news/:id/live": `/api/news/${ids.article}/live`,
    "api/news/:id/alert": `/api/news/${ids.article}/alert`,
    "api/sponsors/:id": "/api/sponsors/nao-existe",
    "sitemaps/:file": "/sitemaps/pages.xml",
    "categoria/:slug": "/categoria/futebol",
    "autor/:slug": "/autor/redacao-esporte-em-foco",
    "time/:slug": "/time/nao-existe",
    "categoria/:slug/rss.xml": "/categoria/futebol/rss.xml",
    "time/:slug/rss.xml": "/time/nao-existe/rss.xml",
    "api/news/:id/teams": `/api/news/${ids.article}/teams`,
    "media/*": ids.media,
    "api/auth/*": "/api/auth/get-session",
    "*": "/nao-existe",
  };
  if (samples[pattern]) return samples[pattern];
  expect(pattern, `rota nova sem caminho de exemplo neste teste: ${pattern}`).not.toMatch(/[:*]/);
  return `/${pattern}`;
}

// ------------------------------------------------------------------------------------------ checking one answer

function directivesOf(policy: string): Record<string, string> {
  const map: Record<string, string> = {};
  for (const part of policy.split(";")) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map[name] = values.join(" ");
  }
  return map;
}

const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text.replace(/\r\n?/g, "\n"), "utf8").digest("base64")}'`;

/** The inline scripts of an HTML page (not data blocks such as JSON-LD, which never run): attributes and text. */
function inlineScripts(html: string): Array<{ attributes: string; text: string }> {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)]
    .filter((match) => !/\bsrc=/.test(match[1] ?? "") && !/type="application\/ld\+json"/.test(match[1] ?? ""))
    .map((match) => ({ attributes: match[1] ?? "", text: match[2] ?? "" }));
}

interface Checked {
  status: number;
  nonce: string | null;
  cached: string | null;
  /** Whether a shared cache in front may store the answer (Cache-Control neither `private` nor `no-store`). */
  shared: boolean;
  scripts: number;
}

/**
 * Requests `path` (with `cookie` when given) and checks every security header and the policy. On an HTML page,
 * every inline script must be allowed by exactly what the header says: the answer's nonce, or (a cached page)
 * the script's hash. Returns the nonce seen, for comparing answers.
 */
async function checkAnswer(url: string, path: string, cookie?: string): Promise<Checked> {
  const abort = new AbortController();
  const response = await fetch(url + path, { redirect: "manual", headers: cookie ? { cookie } : {}, signal: abort.signal });
  const label = `${cookie ? "admin" : "anônimo"} ${path} (${response.status})`;
  for (const [name, value] of Object.entries(FIXED)) expect(response.headers.get(name), `${label}: ${name}`).toBe(value);
  // The reset link's page adds a stricter policy after the site's (its URL carries the token): checked below.
  expect(response.headers.get("referrer-policy"), label).toMatch(/^strict-origin-when-cross-origin(, no-referrer)?$/);
  expect(response.headers.get("permissions-policy"), label).toContain("camera=()");
  expect(response.headers.get("strict-transport-security"), label).toBeNull(); // plain http here
  const policy = response.headers.get("content-security-policy") ?? "";
  const directives = directivesOf(policy);
  expect(directives, `${label}: ${policy}`).toMatchObject(EXACT_DIRECTIVES);
  const scriptSrc = (directives["script-src"] ?? "").split(" ");
  expect(scriptSrc[0], label).toBe("'self'");
  expect(scriptSrc, label).not.toContain("'unsafe-inline'");
  expect(scriptSrc, label).not.toContain("'unsafe-eval'");
  expect(
    scriptSrc.slice(1).every((source) => /^'(nonce|sha256)-[A-Za-z0-9+/=]+'$/.test(source)),
    label,
  ).toBe(true);
  const nonce = /'nonce-([^']+)'/.exec(policy)?.[1] ?? null;
  const cached = response.headers.get("x-page-cache");
  const cacheControl = response.headers.get("cache-control") ?? "";
  const shared = !/(^|[\s,])(private|no-store)\b/i.test(cacheControl);
  // What a CDN or Varnish in front may store is handed to every reader: a nonce in it would be everyone's.
  if (shared) expect(nonce, `${label}: um cache compartilhado pode guardá-la (${cacheControl || "sem Cache-Control"}), e a CSP tem nonce`).toBeNull();
  let scripts = 0;
  if ((response.headers.get("content-type") ?? "").startsWith("text/html")) {
    const found = inlineScripts(await response.text());
    scripts = found.length;
    for (const script of found) {
      if (cached || shared) {
        // A page from the cache, or one a cache in front may store, is shared: no nonce in it, every inline script
        // listed by its hash.
        expect(script.attributes, label).not.toContain("nonce=");
        expect(scriptSrc, `${label}: hash de ${script.text.slice(0, 60)}`).toContain(sha256(script.text));
      } else {
        expect(nonce, label).not.toBeNull();
        expect(script.attributes, label).toContain(`nonce="${nonce}"`);
      }
    }
    if (cached) expect(nonce, `${label}: página do cache sem nonce`).toBeNull();
  } else {
    abort.abort(); // /events never ends; other bodies are not needed
  }
  return { status: response.status, nonce, cached, shared, scripts };
}

/** The server's log lines that tell why a page was not served from the cache: misses, resyncs, warnings. */
function cacheLog(logs: string): string {
  const lines = logs.split("\n").filter((line) => /"cache":"(miss|stale)"|resync|"level":[4-6]0/.test(line));
  return lines.slice(-60).join("\n");
}

// ------------------------------------------------------------------------------------------ the tests

test("cabeçalhos de segurança e CSP em toda rota da tabela (anônimo e admin), em assets, mídia e páginas do cache", async ({
  launchSite,
  browser,
}) => {
  let articleId = "";
  let admin: TestAccount | undefined;
  const site = await launchSite({
    env: { PAGE_CACHE: "1", LOGIN_RATE_LIMIT: "1000" },
    async setup(services) {
      articleId = await createNews(services, { title: "Com imagem" });
      // Before the server starts: an account written by this process while it runs is another process's change to
      // the SQLite file, which the server hears up to a second later as a resync that makes every cached page stale,
      // in the middle of the cache checks below (stop 29's failure: /news-list stale, so a miss).
      admin = await createAdmin(services, { password: "Senha-admin-1" });
    },
  });
  const context = await browser.newContext();
  try {
    await signInAsAdmin(context, site, admin);
    const session = (await context.cookies()).find((cookie) => cookie.name === SESSION_COOKIE);
    expect(session).toBeTruthy();
    const adminCookie = `${SESSION_COOKIE}=${session!.value}`;

    const home = await (await fetch(`${site.url}/`)).text();
    const asset = /\/assets\/[^"]+\.js/.exec(home)![0];
    const media = /\/media\/[^" ]+\.webp/.exec(await (await fetch(`${site.url}/article/${articleId}`)).text())![0];
    const all = patterns(routes as RouteEntry[]);
    expect(all.length).toBeGreaterThan(20);
    const paths = [...all.map((pattern) => samplePath(pattern, { article: articleId, media })), asset, media, "/news-list.data"];
    let htmlPages = 0;
    for (const path of paths) {
      for (const cookie of [undefined, adminCookie]) {
        const checked = await checkAnswer(site.url, path, cookie);
        if (checked.scripts > 0) htmlPages++;
      }
    }
    // The admin pages and the public ones really were rendered with scripts (not all redirects).
    expect(htmlPages).toBeGreaterThan(12);

    // Cached pages: the second request of each public page is a hit, with its scripts' hashes.
    for (const path of ["/", "/news-list", `/article/${articleId}`, "/userLicence"]) {
      const hit = await checkAnswer(site.url, path);
      // On failure, the server's cache misses, resyncs and warnings say why the page was not kept.
      expect(hit.cached, `${path}\n${cacheLog(site.logs())}`).toBe("hit");
      expect(hit.scripts, path).toBeGreaterThan(1);
    }

    // Two rendered answers never share a nonce (anonymous sign-in page, admin page).
    const nonces = new Set<string>();
    for (const [path, cookie] of [
      ["/admin/login", undefined],
      ["/admin/login", undefined],
      ["/add-news", adminCookie],
      ["/add-news", adminCookie],
    ] as const) {
      const { nonce, cached } = await checkAnswer(site.url, path, cookie);
      expect(cached).toBeNull();
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      nonces.add(nonce!);
    }
    expect(nonces.size).toBe(4);

    // The reset link's page adds its stricter Referrer-Policy (the token is in its URL): browsers apply the last
    // policy they recognise in the header (Referrer Policy §8.1), here no-referrer.
    expect((await fetch(`${site.url}/admin/reset-password?token=x`)).headers.get("referrer-policy")).toMatch(/(^|, *)no-referrer$/);
  } finally {
    await context.close();
  }
});

test("no Chromium, nenhuma violação da CSP nas páginas públicas (com e sem cache), no login e nas páginas do admin; a hidratação funciona", async ({
  launchSite,
  page,
}) => {
  let articleId = "";
  const site = await launchSite({
    env: { PAGE_CACHE: "1", LOGIN_RATE_LIMIT: "1000" },
    async setup(services) {
      articleId = await createNews(services, { title: "Notícia com foto" });
      await createNews(services, { title: "Outra notícia", media: null });
    },
  });
  const violations = await watchViolations(page);
  const streams: number[] = [];
  page.on("response", (response) => {
    if (new URL(response.url()).pathname === "/events") streams.push(response.status());
  });
  try {
    // Public pages: the first visit renders (cache miss), the second is served from the cache (hit). On both, React
    // must hydrate (its scripts allowed by nonce, then by hash) and a client-side navigation must work.
    for (const state of ["miss", "hit"]) {
      const home = await openPage(page, site, "/");
      expect(await home.headerValue("x-page-cache"), `home ${state}`).toBe(state);
      await page.getByRole("link", { name: "Outra notícia" }).first().click();
      await expect(page).toHaveURL(/\/article\//);
      await expect(page.getByRole("heading", { level: 1, name: "Outra notícia" })).toBeVisible();

      const article = await openPage(page, site, `/article/${articleId}`);
      expect(await article.headerValue("x-page-cache"), `artigo ${state}`).toBe(state);
      // The lightbox (Radix dialog, its scroll lock adds a <style> element) opens on a click.
      await page.getByRole("button", { name: t.article.openMedia }).locator("img").click();
      await expect(page.getByRole("dialog")).toBeVisible();
      await page.keyboard.press("Escape");
      await expect(page.getByRole("dialog")).toHaveCount(0);

      const list = await openPage(page, site, "/news-list");
      expect(await list.headerValue("x-page-cache"), `lista ${state}`).toBe(state);
    }
    // The live-updates stream (EventSource /events) connected under connect-src 'self'.
    await expect.poll(() => streams.includes(200)).toBe(true);

    await openPage(page, site, "/admin/login");
    await expect(page.getByRole("button", { name: t.auth.signIn, exact: true })).toBeVisible();

    // Admin pages (rendered per request with a nonce; the admin drawer's chunk is loaded lazily).
    await signInAsAdmin(page, site);
    await openPage(page, site, "/add-news");
    await expect(page.locator('input[type="file"][name="media"]')).toBeAttached();
    await openPage(page, site, "/SponsorManager");
    await expect(page.locator('input[type="file"][name="image"]')).toBeAttached();
    // The security page: start the two-factor setup (a client-side form submission) and the QR code, an SVG data
    // URL, is drawn under img-src data:.
    await openPage(page, site, "/admin/security");
    // Typed before hydration, the password would be lost to it and the click would submit the empty form.
    await waitForHydration(page);
    await page.getByLabel(t.auth.twoFactor.passwordLabel).fill("Senha-admin-1");
    await page.getByRole("button", { name: t.auth.twoFactor.enable }).click();
    const qr = page.getByRole("img", { name: t.auth.twoFactor.qrAlt });
    await expect(qr).toBeVisible();
    await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await waitForHydration(page);

    expect(violations).toEqual([]);
    // The watch does see a violation: an inline script added without the nonce is refused and reported.
    await page.evaluate(() => {
      const script = document.createElement("script");
      script.textContent = "document.title = 'executado';";
      document.body.append(script);
    });
    await expect.poll(() => violations.length).toBeGreaterThan(0);
    expect(await page.title()).not.toBe("executado");
  } finally {
    await page.goto("about:blank");
  }
});

test("busca e 404, com e sem o cache de páginas (e toda página pública sem ele), podem ser guardadas por um cache na frente: hashes, nenhum nonce; no Chromium, sem violação e hidratadas", async ({
  launchSite,
  page,
}) => {
  const violations = await watchViolations(page);
  for (const pageCache of ["1", "0"]) {
    let articleId = "";
    const site = await launchSite({
      env: { PAGE_CACHE: pageCache, LOGIN_RATE_LIMIT: "1000" },
      async setup(services) {
        articleId = await createNews(services, { title: "Gol de placa no clássico", media: null });
      },
    });
    const label = (path: string) => `PAGE_CACHE=${pageCache} ${path}`;
    const documents = ["/busca", "/busca?q=gol", "/nao-existe", "/categoria/nao-existe/mais"];
    // Without the page cache, every public page is rendered per request, and is just as public.
    if (pageCache === "0") documents.push("/", "/news-list", `/article/${articleId}`, "/userLicence");
    for (const path of documents) {
      const checked = await checkAnswer(site.url, path);
      expect(checked.cached, label(path)).toBeNull();
      // Either a cache in front may store it, and then it has no nonce (checkAnswer), or it is private.
      expect(checked.scripts, label(path)).toBeGreaterThan(1);
      if (checked.shared) expect(checked.nonce, label(path)).toBeNull();
    }
    // Not HTML, but stored the same way: no nonce in their policy either.
    for (const path of ["/busca.data?q=gol", "/nao-existe.data"]) expect((await checkAnswer(site.url, path)).nonce, label(path)).toBeNull();
    // A signed-in member's pages are private: rendered with their own nonce, as before.
    const login = await checkAnswer(site.url, "/admin/login");
    expect(login.shared).toBe(false);
    expect(login.nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);

    // In Chromium, which enforces the policy: the search and the 404 hydrate, and a client-side navigation works.
    await openPage(page, site, "/busca?q=gol");
    await page.getByRole("link", { name: "Gol de placa no clássico" }).first().click();
    await expect(page).toHaveURL(/\/article\//);
    await expect(page.getByRole("heading", { level: 1, name: "Gol de placa no clássico" })).toBeVisible();
    const missing = await openPage(page, site, "/nao-existe");
    expect(missing.status()).toBe(404);
    await waitForHydration(page);
  }
  expect(violations).toEqual([]);
});

test("com ADSENSE_CLIENT, só a resposta a quem aceitou o parceiro o permite na CSP (página renderizada e do cache)", async ({ launchSite }) => {
  const site = await launchSite({
    env: { PAGE_CACHE: "1", ADSENSE_CLIENT: "ca-pub-1234567890", ADSENSE_SLOT_TOP: "1111111111" },
    async setup(services) {
      await createNews(services, { title: "Notícia", media: null });
    },
  });
  const policyFor = async (path: string, cookie?: string) => {
    const response = await fetch(site.url + path, { headers: cookie ? { cookie } : {} });
    await response.arrayBuffer();
    return {
      policy: directivesOf(response.headers.get("content-security-policy") ?? ""),
      cached: response.headers.get("x-page-cache"),
      vary: response.headers.get("vary"),
    };
  };
  const partner = "https://pagead2.googlesyndication.com";
  // The home twice (rendered, then from the cache) and the sign-in page (always rendered), for each kind of reader.
  for (const path of ["/", "/", "/admin/login"]) {
    for (const cookie of [undefined, "eef.consent=refused", "eef.consent=talvez"]) {
      const { policy } = await policyFor(path, cookie);
      expect(policy["script-src"], `${path} ${cookie ?? "sem cookie"}`).not.toContain(partner);
      expect(policy["frame-src"], `${path} ${cookie ?? "sem cookie"}`).toBe(EXACT_DIRECTIVES["frame-src"]);
      expect(policy["connect-src"]).toBe("'self'");
    }
    const accepted = await policyFor(path, "outro=1; eef.consent=accepted");
    expect(accepted.policy["script-src"], path).toContain(partner);
    expect(accepted.policy["frame-src"], path).toContain("https://*.doubleclick.net");
    expect(accepted.policy["script-src"], path).not.toContain("'unsafe-inline'");
  }
  // The same stored page answers both readers, with a policy each: a shared cache in front must keep them apart.
  const hit = await policyFor("/", "eef.consent=accepted");
  expect(hit.cached).toBe("hit");
  expect(hit.policy["script-src"]).toContain(partner);
  expect(hit.vary).toMatch(/Cookie/);
  expect((await policyFor("/admin/login")).vary).toMatch(/Cookie/);
  const other = await policyFor("/");
  expect(other.cached).toBe("hit");
  expect(other.policy["script-src"]).not.toContain(partner);
});
