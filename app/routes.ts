import { index, layout, type RouteConfig, route } from "@react-router/dev/routes";

/** Every URL of the site. Public paths keep the original product's spelling (e.g. /userLicence). */
export default [
  index("routes/site/home.tsx"),
  route("news-list", "routes/site/news-list.tsx"),
  // The readable slug after the id is optional: /article/{id} (the original's links) still answers.
  route("article/:id/:slug?", "routes/site/article.tsx"),
  route("userLicence", "routes/site/privacy.tsx"),
  route("consentimento", "routes/site/consent.ts"),
  route("busca", "routes/site/search.tsx"),
  // Where the readers' service worker sends a navigation it can neither fetch nor find saved.
  route("sem-conexao", "routes/site/offline.tsx"),
  // The stories a reader marked "Ler depois" (kept on their device, listed in the browser).
  route("ler-depois", "routes/site/read-later.tsx"),
  // A category's and an author's news (same module; the path says which).
  route("categoria/:slug", "routes/site/term-list.tsx", { id: "category-list" }),
  route("autor/:slug", "routes/site/term-list.tsx", { id: "author-list" }),
  // A club's news and matches (a club of the desk's list, /times).
  route("time/:slug", "routes/site/term-list.tsx", { id: "team-list" }),

  route("admin/login", "routes/admin/login.tsx"),
  route("admin/reset-password", "routes/admin/reset-password.tsx"),
  route("admin/verify-email", "routes/admin/verify-email.tsx"),
  route("admin/logout", "routes/admin/logout.ts"),
  // Google Drive store (MEDIA_STORE=gdrive): connect (consent), Google's redirect back, disconnect. Admins only.
  route("admin/drive/connect", "routes/admin/drive-connect.ts"),
  route("admin/drive/callback", "routes/admin/drive-callback.ts"),
  route("admin/drive/disconnect", "routes/admin/drive-disconnect.ts"),
  // Everything inside this layout requires an admin session (checked on the server).
  layout("routes/admin/guard.tsx", [
    route("add-news", "routes/admin/add-news.tsx"),
    route("edit-news/:id", "routes/admin/edit-news.tsx"),
    route("edit-news/:id/historico", "routes/admin/news-history.tsx"),
    // The newsroom's list: every story of every status, filters, search, bulk publish/unpublish/delete.
    route("redacao", "routes/admin/newsroom.tsx"),
    // The top of the home: the manchete and the stories beside it, for how long (editors and admins).
    route("capa", "routes/admin/front-page.tsx"),
    route("SponsorManager", "routes/admin/sponsor-manager.tsx"),
    route("admin/security", "routes/admin/security.tsx"),
    // The team (admins only): members, invitations, roles, revocations and their log.
    route("equipe", "routes/admin/team.tsx"),
    // A member's public profile (name, bio, photo, links): their own; an admin's, anyone's (?membro=).
    route("perfil", "routes/admin/profile.tsx"),
    // The section menu's order and hidden categories (admins only).
    route("secoes", "routes/admin/sections.tsx"),
    // The clubs stories may be tagged with (editors and admins).
    route("times", "routes/admin/teams.tsx"),
  ]),

  route("media/*", "routes/resources/media.ts"),
  route("api/auth/*", "routes/resources/auth.ts"),
  route("api/news", "routes/api/news.ts"),
  route("api/news/:id", "routes/api/news-item.ts"),
  // An image for a news body's image block (the newsroom's editor).
  route("api/media", "routes/api/media.ts"),
  // The news form's autosave of a story: per user, never what readers see.
  route("api/news/:id/autosave", "routes/api/news-autosave.ts"),
  // "Devolver ao repórter": a story in review back to its reporter with a note (editors and admins).
  route("api/news/:id/return", "routes/api/news-return.ts"),
  // The focus point of a story's image (the part a crop keeps).
  route("api/news/:id/media-focus", "routes/api/news-media-focus.ts"),
  // The clubs a story is tagged with (JSON, and the edit page's plain form).
  route("api/news/:id/teams", "routes/api/news-teams.ts"),
  // Live coverage: a story's updates (public page, newsroom posts) and one update (public, newsroom edits/deletes).
  route("api/news/:id/updates", "routes/api/news-live-updates.ts"),
  route("api/news/:id/updates/:updateId", "routes/api/news-live-update.ts"),
  // The same controls as plain HTML forms (the edit page without JavaScript): back to the edit page with the outcome.
  route("api/news/:id/live", "routes/api/news-live-form.ts"),
  // The article page's read beacon ("Mais lidas").
  route("api/reads", "routes/api/reads.ts"),
  // When each of the stories saved on a phone last changed, or that it is gone (the readers' service worker).
  route("api/news-versions", "routes/api/news-versions.ts"),
  // Web Push alerts: the site's public key, a reader's subscription (no account), the desk's "Enviar alerta".
  route("api/push", "routes/api/push.ts"),
  route("api/push/subscriptions", "routes/api/push-subscriptions.ts"),
  route("api/news/:id/alert", "routes/api/news-alert.ts"),
  route("api/sponsors", "routes/api/sponsors.ts"),
  route("api/sponsors/:id", "routes/api/sponsor-item.ts"),
  // Feeds, sitemaps and robots.txt, for feed readers and search engines.
  route("robots.txt", "routes/syndication/robots.ts"),
  route("manifest.webmanifest", "routes/syndication/manifest.ts"),
  route("rss.xml", "routes/syndication/rss.ts", { id: "rss-latest" }),
  route("rss/destaques.xml", "routes/syndication/rss.ts", { id: "rss-highlights" }),
  route("categoria/:slug/rss.xml", "routes/syndication/rss.ts", { id: "rss-category" }),
  route("time/:slug/rss.xml", "routes/syndication/rss.ts", { id: "rss-team" }),
  route("sitemap.xml", "routes/syndication/sitemap-index.ts"),
  route("sitemaps/:file", "routes/syndication/sitemap-part.ts"),
  route("healthz", "routes/resources/healthz.ts"),
  route("readyz", "routes/resources/readyz.ts"),

  route("*", "routes/site/not-found.tsx"),
] satisfies RouteConfig;
