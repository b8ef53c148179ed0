/**
 * Every user-facing text of the site, in Brazilian Portuguese. Code and tests import from here, so a text
 * changes in one place. Texts quoted by the product specification are kept verbatim.
 */
export const t = {
  layout: {
    back: "Voltar",
    home: "Página inicial",
    scrollToTop: "Voltar ao topo",
    skipToContent: "Pular para o conteúdo",
  },
  footer: {
    noSponsors: "Sua marca pode estar aqui! Entre em contato e seja um patrocinador oficial...",
    sponsorsTitle: "Patrocinadores oficiais",
    sponsorAlt: (position: number) => `Patrocinador ${position}`,
    visitSite: "Visite o site",
    followUs: "Siga-nos",
    instagram: "Instagram",
    twitter: "Twitter",
    facebook: "Facebook",
    opensInNewTab: "(abre em nova aba)",
    privacy: "Política de Privacidade",
    copyright: (year: number, siteName: string) => `© ${year} ${siteName}. Todos os direitos reservados.`,
    backToTopLogo: (siteName: string) => `${siteName}: voltar ao início`,
  },
  home: {
    recentTitle: "Últimas notícias",
    highlightsTitle: "Destaques",
    viewAllNews: "Ver todas as notícias",
    viewAllHighlights: "Ver todos os destaques",
    searchingNews: "Procurando notícias...",
    moreNewsSoon: "Mais notícias em breve",
    noHighlights: "Nenhum destaque no momento",
    moreHighlightsSoon: "Mais destaques em breve",
    adLabel: "Publicidade",
    adText: "Espaço reservado para anunciantes",
  },
  newsList: {
    title: "Notícias",
    tabsLabel: "Filtrar notícias",
    tabRecent: "Recentes",
    tabHighlights: "Destaques",
    loading: "Carregando notícias…",
    empty: "Nenhuma notícia encontrada",
    emptyHintRecent: "Adicione sua primeira notícia para começar!",
    emptyHintHighlights: "Nenhuma notícia em destaque.",
    loadError: "Falha ao carregar as notícias. Por favor, tente novamente.",
    highlightBadge: "Destaque",
  },
  article: {
    notFound: "Notícia não encontrada ou erro ao carregar",
    backHome: "Voltar ao início",
    backToNews: "Voltar às notícias",
    edit: "Editar",
    by: "Por",
    publishedOn: "Publicado em",
    dateUnavailable: "Data não disponível",
    openMedia: "Ampliar mídia",
    openVideo: "Ver vídeo em tela cheia",
    closeMedia: "Fechar",
    lightboxTitle: (title: string) => `Mídia: ${title}`,
  },
  news: {
    defaultCategory: "Geral",
    defaultAuthor: (siteName: string) => `Redação ${siteName}`,
    notFound: "Notícia não encontrada",
    imageAlt: (title: string) => title,
  },
  privacy: {
    title: "Política de Privacidade",
    contactPlaceholder: "[e-mail de contato ainda não definido]",
  },
  errors: {
    pageNotFoundTitle: "Página não encontrada",
    pageNotFoundText: "O endereço que você procurou não existe ou foi removido.",
    genericTitle: "Algo deu errado",
    genericText: "Ocorreu um erro inesperado. Por favor, tente novamente em instantes.",
    backHome: "Voltar ao início",
  },
} as const;

export type Messages = typeof t;
