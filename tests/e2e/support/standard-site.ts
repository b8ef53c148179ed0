/**
 * The standard site: one known data set (STANDARD items, LIST_ITEMS and three sponsors) that the read-only tests of
 * a worker share (the `standardSite` fixture).
 */
import { createNews, createSponsor, type NewsInput } from "#tests/factories/news.ts";
import { type RunningSite, startSite } from "#tests/factories/site.ts";

const day = (n: number, hour = 12) => new Date(Date.UTC(2026, 0, 1 + n, hour)).toISOString();

/** Special items of the standard site, newest first. */
export const STANDARD = {
  dated: {
    title: "Final do estadual termina empatada no Maracanã",
    subtitle: "Decisão vai para os pênaltis depois de um 2 a 2 eletrizante diante de 70 mil torcedores.",
    fullContent: "Primeiro parágrafo da final.\nSegunda linha, com o placar.\n\nTerceiro parágrafo, depois de uma linha em branco.",
    category: "Futebol",
    author: "Maria Souza",
    isHighlighted: true,
    createdAt: "2026-03-01T15:00:00.000Z",
    media: "image",
  },
  generic: {
    title: "Notícia sem categoria nem autor definidos",
    subtitle: "Categoria e autor ficaram em branco no cadastro.",
    fullContent: "Texto simples.",
    category: "",
    author: "",
    createdAt: "2026-02-20T12:00:00.000Z",
    media: "image",
  },
  markup: {
    title: "Texto com marcação HTML no conteúdo",
    subtitle: "O conteúdo deve aparecer como texto, nunca como HTML.",
    fullContent: "<b>negrito</b><script>window.__xss=1</script>",
    category: "Tênis",
    author: "João Lima",
    createdAt: "2026-02-18T12:00:00.000Z",
    media: "image",
  },
  video: {
    title: "Vídeo: os gols da rodada",
    subtitle: "Todos os gols do fim de semana em um só vídeo.",
    fullContent: "Assista aos gols.",
    category: "Futebol",
    author: "Ana Ribeiro",
    createdAt: "2026-02-15T12:00:00.000Z",
    media: "video",
  },
} satisfies Record<string, NewsInput>;

const SPORTS = ["Basquete", "Vôlei", "Natação", "Atletismo"];

/** Eleven more news ("Notícia da lista 01…11", oldest 01), two of them highlighted. */
export const LIST_ITEMS: Array<NewsInput & { title: string }> = Array.from({ length: 11 }, (_, index) => ({
  title: `Notícia da lista ${String(index + 1).padStart(2, "0")}`,
  subtitle: `Resumo da notícia da lista número ${index + 1}.`,
  fullContent: `Conteúdo da notícia da lista ${index + 1}.`,
  category: SPORTS[index % SPORTS.length]!,
  author: "Carlos Mendes",
  isHighlighted: index === 3 || index === 8,
  createdAt: day(index),
  media: "image",
}));

/** Sponsors are inserted out of order; the footer must show them oldest first. */
const SPONSOR_DATES = [day(1), day(0), day(2)];

export interface StandardSite extends RunningSite {
  /** Ids of the STANDARD items by key. */
  ids: Record<keyof typeof STANDARD, string>;
  /** Ids of LIST_ITEMS, same order. */
  listIds: string[];
  /** Every title, newest first (the order of the Recentes tab). */
  titlesNewestFirst: string[];
  /** Titles of the highlighted news, newest first. */
  highlightedTitles: string[];
  /** Image URL of each sponsor, oldest first. */
  sponsorSrcs: string[];
}

export async function startStandardSite(): Promise<StandardSite> {
  const ids = {} as StandardSite["ids"];
  const listIds: string[] = [];
  const sponsors: Array<{ createdAt: string; src: string }> = [];
  const site = await startSite({
    async setup(services) {
      for (const [key, input] of Object.entries(STANDARD)) {
        ids[key as keyof typeof STANDARD] = await createNews(services, input);
      }
      for (const input of LIST_ITEMS) listIds.push(await createNews(services, input));
      for (const createdAt of SPONSOR_DATES) {
        const id = await createSponsor(services, new Date(createdAt));
        const row = await services.database.db
          .selectFrom("sponsors")
          .innerJoin("media", "media.id", "sponsors.media_id")
          .select("media.key")
          .where("sponsors.id", "=", id)
          .executeTakeFirstOrThrow();
        sponsors.push({ createdAt, src: services.store.publicUrl(row.key) });
      }
    },
  });
  const all: Array<NewsInput & { title: string }> = [...Object.values(STANDARD), ...LIST_ITEMS];
  const newestFirst = [...all].sort((a, b) => String(b.createdAt).localeCompare(String(a.createdAt)));
  return {
    ...site,
    ids,
    listIds,
    titlesNewestFirst: newestFirst.map((item) => item.title),
    highlightedTitles: newestFirst.filter((item) => item.isHighlighted).map((item) => item.title),
    sponsorSrcs: [...sponsors].sort((a, b) => a.createdAt.localeCompare(b.createdAt)).map((sponsor) => sponsor.src),
  };
}
