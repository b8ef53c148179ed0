import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import type { AppServices } from "#app/.server/app.server.ts";
import { requireAdmin } from "#app/.server/auth/permissions.server.ts";
import { servicesContext } from "#app/.server/context.server.ts";
import { loader as apiNewsLoader } from "#app/routes/api/news.ts";
import { loader as homeLoader } from "#app/routes/site/home.tsx";
import { loader as newsListLoader } from "#app/routes/site/news-list.tsx";
import { createAdmin } from "#tests/factories/auth.ts";
import { createNews } from "#tests/factories/news.ts";
import { type TestServices, useTestServices } from "#tests/factories/use-services.ts";

/**
 * Loaders and guards called as React Router calls them, with a request and a context holding the services (real
 * ones, on a fresh database), without starting the server.
 */
const open = useTestServices("eef-route-context-", { SITE_URL: "http://127.0.0.1:4321" });

function contextOf(services: AppServices): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(servicesContext, services);
  return context;
}

/** A loader's arguments for `url` (what React Router passes: request, params, context, url, pattern). */
function argsFor(url: string, context: RouterContextProvider, headers: HeadersInit = {}) {
  const request = new Request(url, { headers });
  return { request, context, params: {}, url: new URL(url), pattern: new URL(url).pathname };
}

/** The session cookie of a fresh admin, signed in with its password. */
async function adminCookie(services: TestServices): Promise<{ cookie: string; userId: string }> {
  const admin = await createAdmin(services);
  const result = await services.auth.signInWithPassword({ email: admin.email, password: admin.password, ip: "10.1.0.1", headers: new Headers() });
  if (!result.ok) throw new Error("admin sign-in failed");
  const token = /eef\.session_token=[^;]+/.exec(result.headers.get("set-cookie") ?? "")?.[0];
  if (!token) throw new Error("no session cookie");
  return { cookie: token, userId: admin.id };
}

/** The services with `auth.getViewer` counted (every other call goes to the real service). */
function countingViewerLookups(services: AppServices): { services: AppServices; lookups: () => number } {
  let count = 0;
  const auth = Object.create(services.auth) as AppServices["auth"];
  auth.getViewer = (request) => {
    count++;
    return services.auth.getViewer(request);
  };
  return { services: { ...services, auth }, lookups: () => count };
}

async function thrownBy(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (thrown) {
    return thrown;
  }
  throw new Error("expected a throw");
}

describe("requireAdmin(request, context)", () => {
  it("sem sessão: redireciona para /admin/login com o destino, sem cache", async () => {
    const services = await open();
    const { request, context } = argsFor("http://127.0.0.1:4321/edit-news/abc?aba=2", contextOf(services));
    const thrown = await thrownBy(requireAdmin(request, context));
    expect(thrown).toBeInstanceOf(Response);
    const response = thrown as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/admin/login?redirectTo=%2Fedit-news%2Fabc%3Faba%3D2");
    expect(response.headers.get("Cache-Control")).toBe("no-store");
  });

  it("com a sessão de um administrador: devolve o administrador", async () => {
    const services = await open();
    const { cookie, userId } = await adminCookie(services);
    const { request, context } = argsFor("http://127.0.0.1:4321/add-news", contextOf(services), { Cookie: cookie });
    const viewer = await requireAdmin(request, context);
    expect(viewer.userId).toBe(userId);
    expect(viewer.isAdmin).toBe(true);
  });

  it("um contexto sem serviços é um erro do servidor, não um redirecionamento", async () => {
    const { request } = argsFor("http://127.0.0.1:4321/add-news", new RouterContextProvider());
    const thrown = await thrownBy(requireAdmin(request, new RouterContextProvider()));
    expect(thrown).not.toBeInstanceOf(Response);
    expect(thrown).toBeInstanceOf(Error);
  });
});

describe("loaders com os serviços do contexto", () => {
  it("home: as notícias do banco, destaques incluídos", async () => {
    const services = await open();
    // The highlight first, then three newer stories: the recent block holds those three, so the highlight is not
    // shown above and has its place among the highlights (the home shows no story twice).
    await createNews(services, { title: "Seleção convocada", isHighlighted: true, media: null, createdAt: new Date(Date.UTC(2025, 0, 1)) });
    for (const title of ["Final do estadual no domingo", "Vôlei vence na estreia", "Basquete decide hoje"]) {
      await createNews(services, { title, media: null });
    }
    const data = await homeLoader(argsFor("http://127.0.0.1:4321/", contextOf(services)));
    expect(data).not.toHaveProperty("init");
    const home = data as Exclude<typeof data, { init: unknown }>;
    expect(home.recent.map((item) => item.title)).toEqual(
      expect.arrayContaining(["Final do estadual no domingo", "Vôlei vence na estreia", "Basquete decide hoje"]),
    );
    expect(home.highlights.map((item) => item.title)).toContain("Seleção convocada");
    expect(home.mostRead).toEqual([]);
  });

  it("/news-list: o leitor não vê leituras nem filtro; o administrador vê os dois, com uma só consulta do visitante", async () => {
    const base = await open();
    const id = await createNews(base, { title: "Clássico lotado", media: null });
    const reader = countingViewerLookups(base);
    const forReader = await newsListLoader(argsFor("http://127.0.0.1:4321/news-list?situacao=rascunhos", contextOf(reader.services)));
    expect("data" in forReader ? forReader.data : forReader).toMatchObject({ reads: null, statusFilter: null });
    expect(reader.lookups()).toBe(1);

    const { cookie } = await adminCookie(base);
    const admin = countingViewerLookups(base);
    const forAdmin = await newsListLoader(
      argsFor("http://127.0.0.1:4321/news-list?situacao=publicadas", contextOf(admin.services), { Cookie: cookie }),
    );
    const page = "data" in forAdmin ? forAdmin.data : forAdmin;
    expect(page.statusFilter).toBe("publicadas");
    expect(page.reads).toEqual({ [id]: 0 });
    expect(page.news.map((item) => item.title)).toEqual(["Clássico lotado"]);
    expect(admin.lookups()).toBe(1);
  });

  it("GET /api/news: leituras e situação para o administrador com uma só consulta do visitante; leitor recebe só as publicadas", async () => {
    const base = await open();
    const id = await createNews(base, { title: "Rodada decisiva", media: null });
    const { cookie } = await adminCookie(base);
    const admin = countingViewerLookups(base);
    const response = await apiNewsLoader(argsFor("http://127.0.0.1:4321/api/news?status=all", contextOf(admin.services), { Cookie: cookie }));
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    const body = (await response.json()) as { news: { id: string }[]; reads?: Record<string, number> };
    expect(body.news.map((item) => item.id)).toEqual([id]);
    expect(body.reads).toEqual({ [id]: 0 });
    expect(admin.lookups()).toBe(1);

    const anonymous = await apiNewsLoader(argsFor("http://127.0.0.1:4321/api/news?status=all", contextOf(base)));
    expect(anonymous.status).toBe(200);
    expect(anonymous.headers.get("Cache-Control")).toBeNull();
    expect(await anonymous.json()).not.toHaveProperty("reads");
  });
});
