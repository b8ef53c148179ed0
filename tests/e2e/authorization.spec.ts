/**
 * Server-side authorization of EVERY route, derived from app/routes.ts: a route that is not in PUBLIC below must,
 * for an anonymous visitor and for a signed-in user who has no newsroom role, answer GET, POST, and React Router's
 * data requests without ever giving a 2xx with admin content. Pages redirect to /admin/login?redirectTo=<path>.
 * Then one column per newsroom role (reporter, editor; the admin is the control): what NEWSROOM_ROLES below says the
 * role may not do is refused with a 403 and changes nothing. A route added later (anywhere, also under the admin
 * layout) is covered automatically and is for admins only until NEWSROOM_ROLES says otherwise; a new public route
 * must be added to PUBLIC on purpose.
 *
 * Only HTTP requests (Playwright `request`), no browser.
 */
import fs from "node:fs";
import path from "node:path";
import type { APIRequestContext, APIResponse } from "@playwright/test";
import routes from "#app/routes.ts";
import { hasRole, type Role } from "#app/lib/roles.ts";
import { describeRoutes, routeTreeOfConfig } from "#server/route-table.ts";
import { createAdmin, createMember, type TestAccount } from "#tests/factories/auth.ts";
import { createNews, createSponsor, makeTestImage } from "#tests/factories/news.ts";
import { expect, runSql, SESSION_COOKIE, siteQuery, t, test as base, perWorker } from "./support/fixtures.ts";
import { freePort, type RunningSite, startSite } from "#tests/factories/site.ts";

// ------------------------------------------------------------------------------------------ the route table

interface FlatRoute {
  /** Full pattern without the leading slash ("" is the home page). */
  pattern: string;
  /** React Router's route id (the file without extension, unless set). */
  id: string;
  file: string;
  /** Ids of the layouts around it inside the root, outermost first. */
  layouts: string[];
}

const ALL_ROUTES: FlatRoute[] = describeRoutes(routeTreeOfConfig(routes)).map(({ id, parents, path, route }) => ({
  pattern: path,
  id,
  file: route.file,
  layouts: parents.slice(1),
}));

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];

/**
 * What anyone may do, route by route, each with its reason. Every method not listed here (and every route not
 * listed at all) is for admins only and is checked below.
 */
const PUBLIC: Record<string, { methods: readonly Method[]; reason: string }> = {
  "": { methods: ["GET"], reason: "página inicial" },
  "news-list": { methods: ["GET"], reason: "lista de notícias" },
  "article/:id/:slug?": { methods: ["GET"], reason: "notícia (com ou sem o título legível no endereço)" },
  userLicence: { methods: ["GET"], reason: "política de privacidade" },
  consentimento: {
    methods: ["GET", "POST"],
    reason: "a escolha do leitor sobre o parceiro de publicidade (só um cookie com a escolha; GET leva à política de privacidade)",
  },
  busca: { methods: ["GET"], reason: "busca nas notícias" },
  "ler-depois": { methods: ["GET"], reason: "a lista de Ler depois (fica no aparelho do leitor; a página é a mesma para todos)" },
  "sem-conexao": { methods: ["GET"], reason: "a página sem conexão do service worker (a lista de notícias salvas fica no aparelho)" },
  "categoria/:slug": { methods: ["GET"], reason: "notícias de uma categoria" },
  "autor/:slug": { methods: ["GET"], reason: "notícias de um autor" },
  "time/:slug": { methods: ["GET"], reason: "notícias e jogos de um time" },
  "admin/login": { methods: METHODS, reason: "a própria página de login (entrar, registrar, esqueci a senha)" },
  "admin/reset-password": { methods: METHODS, reason: "o link do e-mail de redefinição" },
  "admin/verify-email": { methods: ["GET"], reason: "o link do e-mail de confirmação de cadastro" },
  "media/*": { methods: ["GET"], reason: "imagens e vídeos publicados" },
  // /events (avisos de que algo mudou, sem dados) is not a route: server/event-streams.ts answers it, to anyone, before
  // the app (tests/e2e/live-updates.spec.ts, event-stream-limits.spec.ts).
  "api/auth/*": {
    methods: METHODS,
    reason: "só o retorno do OpenID Connect (/api/auth/callback/google); o resto responde 404 (testado abaixo)",
  },
  "api/news": { methods: ["GET"], reason: "lista pública de notícias (JSON)" },
  "api/news/:id": { methods: ["GET"], reason: "notícia pública (JSON)" },
  "api/news/:id/updates": { methods: ["GET"], reason: "atualizações públicas de uma cobertura ao vivo (JSON; rascunhos: 404)" },
  "api/news/:id/updates/:updateId": { methods: ["GET"], reason: "uma atualização pública de uma cobertura ao vivo (JSON; rascunhos: 404)" },
  "api/sponsors": { methods: ["GET"], reason: "lista pública de patrocinadores (JSON)" },
  "api/news-versions": { methods: ["GET"], reason: "quando mudou cada notícia pública salva no celular (o service worker; rascunhos: null)" },
  "api/push": { methods: ["GET"], reason: "a chave pública dos alertas (Web Push), a mesma para todos" },
  "api/push/subscriptions": {
    methods: ["POST", "DELETE"],
    reason: "os alertas de um leitor (sem conta: a inscrição do navegador é a chave; só serviços de push aceitos)",
  },
  "api/reads": { methods: ["POST"], reason: "contagem anônima de leituras (o sinal que a página do artigo envia), sem dados" },
  "robots.txt": { methods: ["GET"], reason: "instruções para buscadores" },
  "manifest.webmanifest": { methods: ["GET"], reason: "manifesto do aplicativo web (ícones, nome)" },
  "rss.xml": { methods: ["GET"], reason: "feed RSS das últimas notícias" },
  "rss/destaques.xml": { methods: ["GET"], reason: "feed RSS dos destaques" },
  "categoria/:slug/rss.xml": { methods: ["GET"], reason: "feed RSS de uma categoria" },
  "time/:slug/rss.xml": { methods: ["GET"], reason: "feed RSS de um time" },
  "sitemap.xml": { methods: ["GET"], reason: "índice de sitemaps" },
  "sitemaps/:file": { methods: ["GET"], reason: "partes do sitemap (páginas, artigos, Google News)" },
  healthz: { methods: ["GET"], reason: "verificação de saúde" },
  readyz: { methods: ["GET"], reason: "verificação de prontidão (banco e conexão de eventos respondem; a mídia só é informada), sem dados" },
  "*": { methods: ["GET"], reason: "página 404" },
};

const publicMethods = (route: FlatRoute): readonly Method[] => PUBLIC[route.pattern]?.methods ?? [];

/**
 * Who in the newsroom may use what a route guards (its methods that are not public): the lowest role, each with its
 * reason. Every guarded route not listed is for admins only. `reporterRefused`: what a reporter, although the route
 * is theirs, is refused with this test's data (a story that is not theirs, a form that would publish).
 */
const NEWSROOM_ROLES: Record<string, { role: Role; reason: string; reporterRefused?: readonly Method[] }> = {
  "add-news": { role: "reporter", reason: "escrever notícias", reporterRefused: ["POST", "PUT", "PATCH", "DELETE"] },
  "edit-news/:id": { role: "reporter", reason: "editar notícias (o repórter: só as próprias notícias)", reporterRefused: METHODS },
  "edit-news/:id/historico": { role: "editor", reason: "comparar e restaurar versões" },
  "admin/security": { role: "reporter", reason: "o segundo fator da própria conta" },
  perfil: { role: "reporter", reason: "o próprio perfil público (o de outra pessoa: só administradores, testado em authors.spec.ts)" },
  "admin/logout": { role: "reporter", reason: "sair" },
  "api/news": {
    role: "reporter",
    reason: "criar notícias pela API (o repórter: rascunho ou revisão)",
    reporterRefused: ["POST", "PUT", "PATCH", "DELETE"],
  },
  "api/news/:id": { role: "reporter", reason: "alterar notícias pela API (o repórter: só as próprias notícias)", reporterRefused: METHODS },
  "api/news/:id/return": { role: "editor", reason: "devolver ao repórter uma notícia em revisão" },
  "api/news/:id/alert": { role: "editor", reason: "enviar uma notícia ou uma atualização ao vivo como alerta aos leitores" },
  "api/news/:id/updates": {
    role: "reporter",
    reason: "publicar atualizações ao vivo (o repórter: só nas próprias notícias)",
    reporterRefused: ["POST", "PUT", "PATCH", "DELETE"],
  },
  "api/news/:id/updates/:updateId": {
    role: "reporter",
    reason: "editar, fixar e apagar atualizações ao vivo (o repórter: só nas próprias notícias)",
    reporterRefused: ["POST", "PUT", "PATCH", "DELETE"],
  },
  "api/news/:id/live": {
    role: "reporter",
    reason: "a cobertura ao vivo por formulários sem JavaScript (o repórter: só nas próprias notícias)",
    reporterRefused: ["POST", "PUT", "PATCH", "DELETE"],
  },
  "api/news/:id/autosave": {
    role: "reporter",
    reason: "o salvamento automático do formulário (o repórter: só das próprias notícias)",
    reporterRefused: METHODS,
  },
  "api/media": { role: "reporter", reason: "enviar as imagens do corpo da notícia" },
  "api/news/:id/media-focus": {
    role: "reporter",
    reason: "o ponto de foco da imagem da notícia (o repórter: só das próprias notícias)",
    reporterRefused: METHODS,
  },
  "api/news/:id/teams": {
    role: "reporter",
    reason: "os times da notícia (o repórter: só nas próprias notícias)",
    reporterRefused: METHODS,
  },
  times: { role: "editor", reason: "a lista de times que as notícias podem marcar" },
  redacao: { role: "editor", reason: "a lista de todas as notícias e as ações em lote (publicar, despublicar, apagar)" },
  capa: { role: "editor", reason: "a capa: a manchete e as notícias ao lado dela, por quanto tempo" },
};
const requiredRole = (route: FlatRoute): Role => NEWSROOM_ROLES[route.pattern]?.role ?? "admin";
const MEMBER_COLUMNS = [
  { who: "repórter", role: "reporter" },
  { who: "editor", role: "editor" },
] as const satisfies ReadonlyArray<{ who: string; role: Role }>;
/** Every route with at least one method reserved to admins. */
const GUARDED = ALL_ROUTES.filter((route) => publicMethods(route).length < METHODS.length);

const NEWS_TITLE = "Notícia para autorização";

/** Markers that only an admin's page or data contains. */
// (the drawer itself is only rendered once opened, so the trigger is what an admin page always carries)
const ADMIN_MARKERS = [t.admin.menu];

// ------------------------------------------------------------------------------------------------ the site

interface AuthzSite extends RunningSite {
  admin: TestAccount;
  members: Record<"reporter" | "editor", TestAccount>;
  newsId: string;
  sponsorId: string;
}

const test = base.extend<{
  authzSite: AuthzSite;
  nonAdminCookie: string;
  adminCookie: string;
  memberCookies: Record<"reporter" | "editor", string>;
}>({
  authzSite: perWorker("authorization", async (onClose): Promise<AuthzSite> => {
    let admin!: TestAccount;
    let newsId!: string;
    let sponsorId!: string;
    const members = {} as AuthzSite["members"];
    const site = await startSite({
      env: { LOGIN_RATE_LIMIT: "1000" },
      async setup(services) {
        admin = await createAdmin(services, { password: "senha-admin-1" });
        members.reporter = await createMember(services, "reporter", { password: "senha-reporter-1" });
        members.editor = await createMember(services, "editor", { password: "senha-editor-1" });
        newsId = await createNews(services, { title: NEWS_TITLE, media: null });
        sponsorId = await createSponsor(services);
      },
    });
    onClose(() => site.stop());
    return { ...site, admin, members, newsId, sponsorId };
  }),
  /** Fresh sessions of the reporter and the editor (a test may sign one out through /admin/logout). */
  memberCookies: async ({ authzSite, playwright }, use) => {
    await use({
      reporter: await signInCookie(playwright.request, authzSite, authzSite.members.reporter),
      editor: await signInCookie(playwright.request, authzSite, authzSite.members.editor),
    });
  },
  adminCookie: async ({ authzSite, playwright }, use) => {
    await grantAdminRow(authzSite);
    await use(await signInCookie(playwright.request, authzSite));
  },
  /**
   * A valid session of a user who is NOT an admin. Non-admins are signed out at once by every sign-in path, so:
   * sign in as the admin, then delete only the admins row (the session stays).
   */
  nonAdminCookie: async ({ authzSite, playwright }, use) => {
    await grantAdminRow(authzSite);
    const cookie = await signInCookie(playwright.request, authzSite);
    await runSql(authzSite, "DELETE FROM admins WHERE user_id = ?", authzSite.admin.id);
    // Sanity: the session is alive, and it is not an admin's.
    const context = await playwright.request.newContext();
    try {
      const home = await context.get(`${authzSite.url}/`, { headers: { cookie } });
      expect(home.headers()["cache-control"]).toBe("private, no-store");
      expect(await home.text()).not.toContain(t.admin.menu);
    } finally {
      await context.dispose();
    }
    await use(cookie);
  },
});

async function signInCookie(
  factory: { newContext: () => Promise<APIRequestContext> },
  site: AuthzSite,
  account: TestAccount = site.admin,
): Promise<string> {
  const context = await factory.newContext();
  try {
    const response = await context.post(`${site.url}/admin/login`, {
      form: { intent: "login", email: account.email, password: account.password, redirectTo: "/news-list" },
      headers: { origin: site.url },
      maxRedirects: 0,
    });
    expect(response.status(), await response.text()).toBe(302);
    const setCookie = response
      .headersArray()
      .find((header) => header.name.toLowerCase() === "set-cookie" && header.value.startsWith(`${SESSION_COOKIE}=`));
    expect(setCookie, "cookie de sessão").toBeDefined();
    return setCookie!.value.split(";")[0]!;
  } finally {
    await context.dispose();
  }
}

/** A concrete URL path for a route pattern (`:id` → a real news or sponsor id, splats → some path). */
function concretePath(pattern: string, site: AuthzSite): string {
  const sponsor = pattern.includes("sponsor");
  const path = pattern
    .split("/")
    .map((segment) => {
      if (segment === "*") return "qualquer/coisa";
      if (segment.startsWith(":")) return segment === ":id" ? (sponsor ? site.sponsorId : site.newsId) : "x";
      return segment.replace(/\?$/, "");
    })
    .join("/");
  return `/${path}`;
}

/** What an admin-only action would change: the news item and the sponsor of the site must stay as they were. */
async function dataSnapshot(site: AuthzSite) {
  return {
    news: await siteQuery(site, "SELECT id, title, subtitle, is_highlighted, live_coverage, live_scoreboard FROM news ORDER BY id"),
    liveUpdates: await siteQuery(site, "SELECT id, body, pinned FROM news_live_updates ORDER BY id"),
    sponsors: await siteQuery(site, "SELECT id, media_id FROM sponsors ORDER BY id"),
    users: await siteQuery(site, 'SELECT id, email, name FROM "user" ORDER BY id'),
  };
}

/** Makes the site's admin an admin again (a test may have removed only its admins row). */
function grantAdminRow(site: AuthzSite): Promise<void> {
  return runSql(site, "INSERT INTO admins (user_id, created_at) VALUES (?, ?) ON CONFLICT DO NOTHING", site.admin.id, new Date().toISOString());
}

/** A valid news payload, so that an action missing its guard would really change something (and be caught). */
const NEWS_FORM = {
  intent: "save",
  title: "Alterada por quem não é admin",
  subtitle: "Subtítulo alterado",
  fullContent: "Conteúdo alterado",
  category: "Invasão",
  isHighlighted: "on",
};

const isPage = (route: FlatRoute) => route.file.endsWith(".tsx");

function expectNoAdminContent(body: string, site: AuthzSite, what: string) {
  for (const marker of [...ADMIN_MARKERS, site.admin.email]) expect(body, `${what}: contém "${marker}"`).not.toContain(marker);
}

/** A redirect to the login page; for pages, remembering where the visitor was going. */
function expectLoginRedirect(response: APIResponse, path: string, page: boolean, what: string) {
  expect([302, 303], `${what}: status ${response.status()}`).toContain(response.status());
  const location = new URL(response.headers().location ?? "", "http://site.invalid");
  expect(location.origin, what).toBe("http://site.invalid"); // relative: stays on this site
  expect(location.pathname, what).toBe("/admin/login");
  if (page) expect(location.searchParams.get("redirectTo"), what).toBe(path);
  expect(response.headers()["cache-control"] ?? "", what).toMatch(/no-store/);
}

/** The single-fetch answer of a data request (`.data`): a redirect to the login page, never the route's data. */
async function expectDataRedirect(response: APIResponse, what: string) {
  const body = await response.text();
  expect(response.status(), `${what}: ${body.slice(0, 300)}`).not.toBe(200);
  if (response.status() === 202) {
    expect(body, what).toContain("SingleFetchRedirect");
    expect(body, what).toContain("/admin/login");
  } else {
    expect([302, 303, 401, 403, 404, 405], `${what}: status ${response.status()}`).toContain(response.status());
  }
  return body;
}

/** A refused request: a redirect to login, or a 4xx. Never a 2xx, never a redirect elsewhere. */
async function expectRefused(response: APIResponse, what: string) {
  const status = response.status();
  expect(status, what).not.toBeLessThan(300);
  if (status < 400) {
    expect([302, 303], `${what}: status ${status}`).toContain(status);
    expect(new URL(response.headers().location ?? "", "http://site.invalid").pathname, what).toBe("/admin/login");
  } else {
    expect([401, 403, 404, 405], `${what}: status ${status}`).toContain(status);
  }
  return response.text();
}

// ------------------------------------------------------------------------------------------------- tests

test("a tabela de rotas é lida de app/routes.ts, e a lista de rotas públicas não tem entradas mortas", () => {
  const patterns = ALL_ROUTES.map((route) => route.pattern);
  for (const pattern of Object.keys(PUBLIC)) expect(patterns, `PUBLIC["${pattern}"] não existe mais`).toContain(pattern);
  // The three newsroom pages are there, and nothing of them is public.
  for (const pattern of ["add-news", "edit-news/:id", "SponsorManager"]) {
    const route = GUARDED.find((candidate) => candidate.pattern === pattern);
    expect(route, pattern).toBeDefined();
    expect(publicMethods(route!), pattern).toEqual([]);
  }
});

test("o build em uso (build/server) tem as mesmas rotas que app/routes.ts", () => {
  // Otherwise a route missing from a stale build answers 404 and would pass as "refused" without being tested.
  const dir = path.resolve(import.meta.dirname, "../../build/server/assets");
  const serverBuild = fs.readdirSync(dir).filter((name) => /^server-build-.*\.js$/.test(name));
  expect(serverBuild, "rode `npx react-router build`").toHaveLength(1);
  const code = fs.readFileSync(path.join(dir, serverBuild[0]!), "utf8");
  const missing = ALL_ROUTES.filter((route) => !code.includes(JSON.stringify(route.id)));
  expect(
    missing.map((route) => route.id),
    "rotas de app/routes.ts ausentes do build: rode `npx react-router build`",
  ).toEqual([]);
});

for (const route of GUARDED) {
  const denied = METHODS.filter((method) => !publicMethods(route).includes(method));
  test.describe(`/${route.pattern} (${route.id}): ${denied.join(", ")} só para a redação (${requiredRole(route)} ou acima)`, () => {
    for (const who of ["anônimo", "não administrador"] as const) {
      test(`${who}: recusado no servidor, sem conteúdo de administrador e sem alterar nada`, async ({ authzSite, nonAdminCookie, request }) => {
        const path = concretePath(route.pattern, authzSite);
        const headers: Record<string, string> = who === "anônimo" ? {} : { cookie: nonAdminCookie };
        const before = await dataSnapshot(authzSite);

        for (const method of denied) {
          const what = `${method} ${path}`;
          const response = await request.fetch(authzSite.url + path, {
            method,
            headers: method === "GET" ? headers : { ...headers, origin: authzSite.url },
            // multipart: what the newsroom forms and the upload APIs read (they may refuse other encodings early).
            multipart: method === "GET" ? undefined : NEWS_FORM,
            maxRedirects: 0,
          });
          if (method === "GET" && isPage(route)) expectLoginRedirect(response, path, true, what);
          const body = await expectRefused(response, what);
          expectNoAdminContent(body, authzSite, what);
        }

        if (isPage(route) && denied.includes("GET")) {
          // Client-side navigations fetch `<path>.data`; `_routes` asks for some loaders only (e.g. the page's own,
          // skipping its layout's). None of them may answer with the route's data.
          for (const ids of [undefined, route.id, ...route.layouts, [...route.layouts, route.id].join(",")]) {
            const dataPath = `${path}.data${ids ? `?_routes=${encodeURIComponent(ids)}` : ""}`;
            const body = await expectDataRedirect(await request.get(authzSite.url + dataPath, { headers, maxRedirects: 0 }), `GET ${dataPath}`);
            expectNoAdminContent(body, authzSite, `GET ${dataPath}`);
          }
        }
        if (isPage(route) && denied.includes("POST")) {
          const what = `POST ${path}.data`;
          const response = await request.post(`${authzSite.url}${path}.data`, {
            headers: { ...headers, origin: authzSite.url },
            multipart: NEWS_FORM,
            maxRedirects: 0,
          });
          const body = await response.text();
          expect(response.status(), `${what}: ${body.slice(0, 300)}`).not.toBe(200);
          if (response.status() === 202) expect(body, what).toContain("/admin/login");
          expectNoAdminContent(body, authzSite, what);
        }

        expect(await dataSnapshot(authzSite), "nada mudou no banco").toEqual(before);
      });
    }

    for (const { who, role } of MEMBER_COLUMNS) {
      const allowed = hasRole(role, requiredRole(route));
      const refused = denied.filter(
        (method) => !allowed || (role === "reporter" && NEWSROOM_ROLES[route.pattern]?.reporterRefused?.includes(method)),
      );
      if (refused.length) {
        test(`${who}: ${refused.join(", ")} recusados com 403 no servidor, sem dados da rota e sem alterar nada`, async ({
          authzSite,
          memberCookies,
          request,
        }) => {
          const path = concretePath(route.pattern, authzSite);
          const headers = { cookie: memberCookies[role] };
          const before = await dataSnapshot(authzSite);
          for (const method of refused) {
            const what = `${who}: ${method} ${path}`;
            const isApi = route.pattern.startsWith("api/");
            const response = await request.fetch(authzSite.url + path, {
              method,
              headers: method === "GET" ? headers : { ...headers, origin: authzSite.url },
              multipart: method === "GET" ? undefined : isApi ? (route.pattern.includes("sponsor") ? API_SPONSOR : API_NEWS) : NEWS_FORM,
              maxRedirects: 0,
            });
            const body = await response.text();
            // Signed in with a role: never sent to the login page, refused (403), or a method the route does not take.
            expect([403, 405], `${what}: status ${response.status()} ${body.slice(0, 200)}`).toContain(response.status());
            if (response.status() === 403 && isApi)
              expect((JSON.parse(body) as { error: { code: string } }).error.code, what).toMatch(
                /^(role_forbidden|publish_forbidden|story_not_yours)$/,
              );
            if (response.status() === 403 && method === "GET" && isPage(route))
              expect(body, what).toContain(route.pattern.startsWith("edit-news/:id") && allowed ? "Repórteres só alteram" : t.errors.forbiddenTitle);
            for (const marker of [NEWS_TITLE, authzSite.admin.email]) expect(body, `${what}: contém "${marker}"`).not.toContain(marker);
          }
          if (isPage(route) && refused.includes("GET")) {
            for (const ids of [undefined, route.id, [...route.layouts, route.id].join(",")]) {
              const dataPath = `${path}.data${ids ? `?_routes=${encodeURIComponent(ids)}` : ""}`;
              const response = await request.get(authzSite.url + dataPath, { headers, maxRedirects: 0 });
              const body = await response.text();
              expect(response.status(), `${who}: GET ${dataPath}: ${body.slice(0, 200)}`).toBe(403);
              expect(body, `${who}: GET ${dataPath}`).not.toContain(NEWS_TITLE);
            }
          }
          expect(await dataSnapshot(authzSite), "nada mudou no banco").toEqual(before);
        });
      }
      if (allowed && isPage(route) && denied.includes("GET") && !refused.includes("GET")) {
        test(`controle: ${who} abre a página (o papel dele basta)`, async ({ authzSite, memberCookies, request }) => {
          const path = concretePath(route.pattern, authzSite);
          const response = await request.get(authzSite.url + path, { headers: { cookie: memberCookies[role] }, maxRedirects: 0 });
          expect(response.status()).toBe(200);
          expect(response.headers()["cache-control"]).toBe("private, no-store");
        });
      }
    }

    if (isPage(route) && denied.includes("GET")) {
      test("controle: o administrador abre a página (o caminho testado existe)", async ({ authzSite, adminCookie, request }) => {
        const path = concretePath(route.pattern, authzSite);
        const response = await request.get(authzSite.url + path, { headers: { cookie: adminCookie }, maxRedirects: 0 });
        expect(response.status()).toBe(200);
        expect(response.headers()["cache-control"]).toBe("private, no-store");
        expect(await response.text()).toContain(t.admin.menu);
      });
    }
  });
}

test.describe("a API do Better Auth", () => {
  test("só o retorno do OpenID Connect é alcançável; as demais rotas respondem 404", async ({ authzSite, adminCookie, request }) => {
    const paths = [
      "/api/auth/get-session",
      "/api/auth/ok",
      "/api/auth/list-sessions",
      "/api/auth/sign-in/email",
      "/api/auth/sign-up/email",
      "/api/auth/sign-in/social",
      "/api/auth/sign-out",
      "/api/auth/request-password-reset",
      "/api/auth/reset-password",
      "/api/auth/update-user",
      "/api/auth/delete-user",
      "/api/auth/revoke-sessions",
      "/api/auth/callback/google/../../get-session",
      "/api/auth/callback/googlex",
    ];
    for (const path of paths) {
      for (const cookie of [undefined, adminCookie]) {
        const headers: Record<string, string> = cookie ? { cookie, origin: authzSite.url } : { origin: authzSite.url };
        const get = await request.get(authzSite.url + path, { headers, maxRedirects: 0 });
        expect(get.status(), `GET ${path}`).toBe(404);
        const post = await request.post(authzSite.url + path, { headers, data: { email: authzSite.admin.email, password: "x" }, maxRedirects: 0 });
        expect(post.status(), `POST ${path}`).toBe(404);
        expect(await post.text(), `POST ${path}`).not.toContain("token");
      }
    }
  });
});

test.describe("CSRF e cookie de sessão", () => {
  test("POST /admin/logout com Origin de outro site: 403, e a sessão continua", async ({ authzSite, adminCookie, request }) => {
    const foreign = await request.post(`${authzSite.url}/admin/logout`, {
      headers: { cookie: adminCookie, origin: "https://evil.example" },
      maxRedirects: 0,
    });
    expect(foreign.status()).toBe(403);
    expect(foreign.headers()["set-cookie"]).toBeUndefined();
    // A foreign Referer without Origin, and no Origin/Referer at all with a cookie, are refused as well.
    const byReferer = await request.post(`${authzSite.url}/admin/logout`, {
      headers: { cookie: adminCookie, referer: "https://evil.example/pagina" },
      maxRedirects: 0,
    });
    expect(byReferer.status()).toBe(403);
    const bare = await request.post(`${authzSite.url}/admin/logout`, { headers: { cookie: adminCookie }, maxRedirects: 0 });
    expect(bare.status()).toBe(403);
    // A GET (a link, an image) never signs out either.
    const viaGet = await request.get(`${authzSite.url}/admin/logout`, { headers: { cookie: adminCookie }, maxRedirects: 0 });
    expect(viaGet.status()).toBe(302);
    expect(viaGet.headers()["set-cookie"]).toBeUndefined();
    // Still signed in.
    const page = await request.get(`${authzSite.url}/add-news`, { headers: { cookie: adminCookie }, maxRedirects: 0 });
    expect(page.status()).toBe(200);

    // The same request from the site itself signs out and clears the cookie.
    const own = await request.post(`${authzSite.url}/admin/logout`, {
      headers: { cookie: adminCookie, origin: authzSite.url },
      maxRedirects: 0,
    });
    expect(own.status()).toBe(302);
    expect(own.headers().location).toBe("/admin/login");
    const cleared = own.headersArray().find((header) => header.name.toLowerCase() === "set-cookie" && header.value.startsWith(`${SESSION_COOKIE}=`));
    expect(cleared?.value).toMatch(/Max-Age=0/);
    const after = await request.get(`${authzSite.url}/add-news`, { headers: { cookie: adminCookie }, maxRedirects: 0 });
    expect(after.status()).toBe(302);
  });

  test("POST /admin/login com Origin de outro site: 403 (sem login CSRF)", async ({ authzSite, request }) => {
    const response = await request.post(`${authzSite.url}/admin/login`, {
      headers: { origin: "https://evil.example" },
      form: { intent: "login", email: authzSite.admin.email, password: authzSite.admin.password },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(403);
    expect(response.headers()["set-cookie"]).toBeUndefined();
  });

  test("o cookie de sessão é HttpOnly, SameSite=Lax, Path=/ e não Secure em HTTP", async ({ authzSite, playwright }) => {
    await grantAdminRow(authzSite);
    const context = await playwright.request.newContext();
    try {
      const response = await context.post(`${authzSite.url}/admin/login`, {
        form: { intent: "login", email: authzSite.admin.email, password: authzSite.admin.password },
        headers: { origin: authzSite.url },
        maxRedirects: 0,
      });
      expect(response.status()).toBe(302);
      const cookie = response
        .headersArray()
        .find((header) => header.name.toLowerCase() === "set-cookie" && header.value.startsWith(`${SESSION_COOKIE}=`))!.value;
      const attributes = cookie
        .split(";")
        .slice(1)
        .map((part) => part.trim().toLowerCase());
      expect(attributes).toContain("httponly");
      expect(attributes).toContain("samesite=lax");
      expect(attributes).toContain("path=/");
      expect(attributes).not.toContain("secure");
      expect(attributes.some((attribute) => attribute.startsWith("domain="))).toBe(false);
    } finally {
      await context.dispose();
    }
  });

  test("atrás de HTTPS (SITE_URL https, proxy local) o cookie é Secure", async ({ launchSite, playwright }) => {
    let admin!: TestAccount;
    const port = await freePort();
    const siteUrl = `https://127.0.0.1:${port}`;
    const site = await launchSite({
      port,
      env: { SITE_URL: siteUrl, TRUST_PROXY: "loopback" },
      async setup(services) {
        admin = await createAdmin(services);
      },
    });
    const context = await playwright.request.newContext();
    try {
      const response = await context.post(`${site.url}/admin/login`, {
        form: { intent: "login", email: admin.email, password: admin.password },
        // The TLS-terminating proxy on this machine says the visitor used HTTPS.
        headers: { origin: siteUrl, "x-forwarded-proto": "https" },
        maxRedirects: 0,
      });
      expect(response.status(), await response.text()).toBe(302);
      const cookie = response
        .headersArray()
        .find((header) => header.name.toLowerCase() === "set-cookie" && /session_token=/.test(header.value))!.value;
      const attributes = cookie
        .split(";")
        .slice(1)
        .map((part) => part.trim().toLowerCase());
      expect(cookie.startsWith(`__Secure-${SESSION_COOKIE}=`)).toBe(true);
      expect(attributes).toEqual(expect.arrayContaining(["secure", "httponly", "samesite=lax", "path=/"]));
    } finally {
      await context.dispose();
    }
  });
});

// ------------------------------------------------------------------------------- the JSON API's write methods

/** What a write to the API could change: rows of news, sponsors and media, and the files of the media store. */
async function apiState(site: AuthzSite) {
  const count = async (table: string) => Number((await siteQuery<{ n: number | string }>(site, `SELECT COUNT(*) AS n FROM ${table}`))[0]!.n);
  return {
    news: await count("news"),
    sponsors: await count("sponsors"),
    media: await count("media"),
    autosaves: await count("news_autosaves"),
    liveUpdates: await count("news_live_updates"),
    rows: await dataSnapshot(site),
    files: listFiles(path.join(site.dataDir, "media")),
    uploads: listFiles(path.join(site.dataDir, "tmp", "uploads")),
  };
}

function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

const apiImage = async () => ({ name: "logo.png", mimeType: "image/png", buffer: await makeTestImage(120, 120, "png") });

interface ApiWrite {
  method: "POST" | "PUT" | "PATCH" | "DELETE";
  path: (site: AuthzSite) => string;
  body: "json" | "multipart" | "none" | "live";
  /** The admin's answer to the same request (the control: the path, method and body are real). */
  adminStatus: number;
}

/** Every write the JSON API supports, with each kind of body it reads. */
const API_WRITES: ApiWrite[] = [
  { method: "POST", path: () => "/api/news", body: "json", adminStatus: 201 },
  { method: "POST", path: () => "/api/news", body: "multipart", adminStatus: 201 },
  { method: "PUT", path: (site) => `/api/news/${site.newsId}`, body: "json", adminStatus: 200 },
  { method: "PUT", path: (site) => `/api/news/${site.newsId}`, body: "multipart", adminStatus: 200 },
  { method: "PATCH", path: (site) => `/api/news/${site.newsId}`, body: "json", adminStatus: 200 },
  { method: "POST", path: (site) => `/api/news/${site.newsId}`, body: "multipart", adminStatus: 200 },
  { method: "DELETE", path: (site) => `/api/news/${site.newsId}`, body: "none", adminStatus: 204 },
  // The news form's autosave (the admin's own copy of a story): kept, then (a story without one) nothing to discard.
  { method: "PUT", path: (site) => `/api/news/${site.newsId}/autosave`, body: "json", adminStatus: 200 },
  { method: "DELETE", path: (site) => `/api/news/${site.newsId}/autosave`, body: "none", adminStatus: 404 },
  // Live coverage: started on the story; an update to a story without coverage is refused after every check (409), an
  // update that does not exist is a 404 after them.
  { method: "PATCH", path: (site) => `/api/news/${site.newsId}`, body: "live", adminStatus: 200 },
  { method: "POST", path: (site) => `/api/news/${site.newsId}/updates`, body: "live", adminStatus: 409 },
  { method: "PATCH", path: (site) => `/api/news/${site.newsId}/updates/nao-existe`, body: "live", adminStatus: 404 },
  { method: "DELETE", path: (site) => `/api/news/${site.newsId}/updates/nao-existe`, body: "none", adminStatus: 404 },
  { method: "POST", path: () => "/api/sponsors", body: "multipart", adminStatus: 201 },
  { method: "PATCH", path: (site) => `/api/sponsors/${site.sponsorId}`, body: "json", adminStatus: 200 },
  { method: "DELETE", path: (site) => `/api/sponsors/${site.sponsorId}`, body: "none", adminStatus: 204 },
  // An image for a news body's image block (the editor's "Imagem").
  { method: "POST", path: () => "/api/media", body: "multipart", adminStatus: 201 },
];

const API_SPONSOR = { name: "Patrocínio sem permissão", link: "https://invasao.example/" };
const API_NEWS = { title: "Criada pela API sem permissão", subtitle: "Subtítulo", fullContent: "Conteúdo", category: "Invasão", isHighlighted: "on" };

async function apiWrite(request: APIRequestContext, site: AuthzSite, write: ApiWrite, headers: Record<string, string>, target = write.path(site)) {
  const isSponsor = target.startsWith("/api/sponsors");
  const options: Parameters<APIRequestContext["fetch"]>[1] = { method: write.method, headers: { ...headers, origin: site.url }, maxRedirects: 0 };
  if (write.body === "json") options.data = isSponsor ? API_SPONSOR : API_NEWS;
  if (write.body === "live") options.data = /\/updates\b/.test(target) ? { text: "Atualização sem permissão", pinned: true } : { coverage: "live" };
  if (write.body === "multipart" && target === "/api/media") options.multipart = { file: await apiImage() };
  else if (write.body === "multipart")
    options.multipart = isSponsor
      ? { ...API_SPONSOR, image: await apiImage() }
      : { ...API_NEWS, mediaDescription: "Foto de teste.", media: await apiImage() };
  return request.fetch(site.url + target, options);
}

test.describe("API JSON: métodos de escrita (POST/PUT/PATCH/DELETE) só para administradores", () => {
  for (const who of ["anônimo", "não administrador"] as const) {
    test(`${who}: ${who === "anônimo" ? 401 : 403} em JSON, sem alterar linhas nem arquivos`, async ({ authzSite, nonAdminCookie, request }) => {
      const headers: Record<string, string> = who === "anônimo" ? {} : { cookie: nonAdminCookie };
      const status = who === "anônimo" ? 401 : 403;
      const before = await apiState(authzSite);
      for (const write of API_WRITES) {
        const what = `${who}: ${write.method} ${write.path(authzSite)} (${write.body})`;
        const response = await apiWrite(request, authzSite, write, headers);
        const text = await response.text();
        expect(response.status(), `${what}: ${text.slice(0, 200)}`).toBe(status);
        expect(response.headers()["content-type"], what).toMatch(/^application\/json/);
        expect(JSON.parse(text), what).toEqual({ error: { code: status === 401 ? "unauthorized" : "forbidden", message: expect.any(String) } });
        expectNoAdminContent(text, authzSite, what);
      }
      expect(await apiState(authzSite), "nada mudou: linhas, mídia e arquivos").toEqual(before);
    });
  }

  test("controle: o administrador faz as mesmas escritas (2xx), em itens criados para isso", async ({ authzSite, adminCookie, request }) => {
    const headers = { cookie: adminCookie };
    const ownNews = async () => {
      const created = await apiWrite(request, authzSite, API_WRITES[0]!, headers);
      expect(created.status()).toBe(201);
      return ((await created.json()) as { id: string }).id;
    };
    const ownSponsor = async () => {
      const created = await apiWrite(request, authzSite, API_WRITES.find((write) => write.path(authzSite) === "/api/sponsors")!, headers);
      expect(created.status()).toBe(201);
      return ((await created.json()) as { id: string }).id;
    };
    const created: string[] = [];
    for (const write of API_WRITES) {
      let target = write.path(authzSite);
      if (target.includes(authzSite.newsId)) target = target.replace(authzSite.newsId, await ownNews());
      if (target.includes(authzSite.sponsorId)) target = target.replace(authzSite.sponsorId, await ownSponsor());
      const response = await apiWrite(request, authzSite, write, headers, target);
      expect(response.status(), `${write.method} ${target} (${write.body}): ${(await response.text()).slice(0, 200)}`).toBe(write.adminStatus);
      if (write.adminStatus === 201 && write.path(authzSite) === "/api/news") created.push(((await response.json()) as { id: string }).id);
    }
    // Leave the site as the other tests expect it: only the original news item and sponsor.
    const listed = (await (await request.get(`${authzSite.url}/api/news`)).json()) as { news: Array<{ id: string }> };
    for (const item of listed.news.filter((news) => news.id !== authzSite.newsId)) {
      expect(
        (await request.delete(`${authzSite.url}/api/news/${item.id}`, { headers: { cookie: adminCookie, origin: authzSite.url } })).status(),
      ).toBe(204);
    }
    const sponsors = (await (await request.get(`${authzSite.url}/api/sponsors`)).json()) as { sponsors: Array<{ id: string }> };
    for (const item of sponsors.sponsors.filter((sponsor) => sponsor.id !== authzSite.sponsorId)) {
      expect(
        (await request.delete(`${authzSite.url}/api/sponsors/${item.id}`, { headers: { cookie: adminCookie, origin: authzSite.url } })).status(),
      ).toBe(204);
    }
    expect(created.length).toBe(2);
  });

  test("métodos que a rota não aceita respondem 405 (antes da autenticação), sem alterar nada", async ({ authzSite, nonAdminCookie, request }) => {
    const before = await apiState(authzSite);
    const unsupported: Array<[string, string]> = [
      ["PUT", "/api/news"],
      ["PATCH", "/api/news"],
      ["DELETE", "/api/news"],
      ["PUT", "/api/sponsors"],
      ["PATCH", "/api/sponsors"],
      ["DELETE", "/api/sponsors"],
      ["POST", `/api/sponsors/${authzSite.sponsorId}`],
      ["PUT", `/api/sponsors/${authzSite.sponsorId}`],
      ["POST", `/api/news/${authzSite.newsId}/autosave`],
      ["PATCH", `/api/news/${authzSite.newsId}/autosave`],
    ];
    for (const cookie of [undefined, nonAdminCookie]) {
      for (const [method, target] of unsupported) {
        const response = await request.fetch(authzSite.url + target, {
          method,
          headers: cookie ? { cookie, origin: authzSite.url } : { origin: authzSite.url },
          data: API_NEWS,
          maxRedirects: 0,
        });
        expect(response.status(), `${method} ${target}`).toBe(405);
      }
    }
    expect(await apiState(authzSite)).toEqual(before);
  });
});
