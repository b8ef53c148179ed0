import { API_PAGE_SIZE_MAX, IMPORT_DOCUMENT_ID_MAX_LENGTH, megabytes } from "#app/lib/limits.ts";
import { type Role, SEES_UNPUBLISHED } from "#app/lib/roles.ts";

/**
 * Who sees a story readers do not, by the lowest role that does, verb included. The rule is the server's own
 * (SEES_UNPUBLISHED in app/lib/roles.ts, read by the guard that lets a member open a draft): the words follow it.
 */
const WHO_SEES: Record<Role, string> = {
  reporter: "a redação (repórteres, editores e administradores) vê",
  editor: "editores e administradores veem",
  admin: "administradores veem",
};
const whoSeesUnpublished = WHO_SEES[SEES_UNPUBLISHED];

/**
 * Every user-facing text of the site, in Brazilian Portuguese. Code and tests import from here, so a text
 * changes in one place. Texts quoted by the product specification are kept verbatim. Texts only the newsroom reads
 * (the editor, revisions, sponsors, uploads, storage, sign-in) are in app/i18n/newsroom.ts, which reader pages never
 * load: every page's JavaScript carries this file.
 */
export const t = {
  layout: {
    back: "Voltar",
    home: "Página inicial",
    sectionsLabel: "Seções",
    allSections: "Todas",
    scrollToTop: "Voltar ao topo",
    skipToContent: "Pular para o conteúdo",
    theme: "Tema",
    themeAuto: "Automático",
    themeLight: "Claro",
    themeDark: "Escuro",
  },
  search: {
    title: "Buscar",
    fieldLabel: "Buscar notícias",
    pageFieldLabel: "O que você procura",
    placeholder: "Buscar notícias",
    submit: "Buscar",
    resultsTitle: (query: string) => `Resultados para “${query}”`,
    emptyQuery: "Digite o que você procura",
    emptyQueryHint: "Busque por times, atletas, campeonatos ou qualquer palavra das notícias.",
    noResults: (query: string) => `Nenhuma notícia encontrada para “${query}”`,
    noResultsHint: "Confira a grafia ou tente outras palavras, menos palavras ou termos mais gerais.",
    more: "Mais resultados",
    loadingMore: "Carregando mais resultados…",
    loadMoreError: "Não foi possível carregar mais resultados.",
    retry: "Tentar de novo",
    end: "Não há mais resultados.",
    loadError: "Falha ao buscar notícias. Por favor, tente novamente.",
    invalidPage: "Página de resultados inválida. Volte à primeira página da busca.",
    firstPage: "Primeira página",
    foundInText: "Trecho da notícia",
    /** Before the suggested query, a link: "Você quis dizer Flamengo?" */
    didYouMean: "Você quis dizer",
    showingSuggestion: (query: string) => `Nada foi encontrado para “${query}”: abaixo, os resultados da busca sugerida.`,
    sectionPage: (name: string) => `Ver a seção ${name}`,
    browseSections: "Navegue pelas seções",
  },
  footer: {
    noSponsors: "Sua marca pode estar aqui! Entre em contato e seja um patrocinador oficial...",
    sponsorsTitle: "Patrocinadores oficiais",
    /** After a sponsor's name, for its link (which opens in a new tab). */
    sponsorLinkHint: "(abre em nova aba)",
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
    title: (site: string) => `${site}: notícias esportivas`,
    recentTitle: "Últimas notícias",
    highlightsTitle: "Destaques",
    viewAllNews: "Ver todas as notícias",
    viewAllHighlights: "Ver todos os destaques",
    searchingNews: "Procurando notícias...",
    moreNewsSoon: "Mais notícias em breve",
    noHighlights: "Nenhum destaque no momento",
    moreHighlightsSoon: "Mais destaques em breve",
    adLabel: "Publicidade",
    /** The two ad spaces' accessible names (two landmarks must not share one). */
    adLabelTop: "Publicidade (topo)",
    adLabelBottom: "Publicidade (rodapé)",
    adText: "Espaço reservado para anunciantes",
    sectionMore: (name: string) => `Mais de ${name}`,
  },
  newsList: {
    firstPage: "Primeira página",
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
    more: "Mais notícias",
    loadingMore: "Carregando mais notícias…",
    loadMoreError: "Não foi possível carregar mais notícias.",
    retry: "Tentar de novo",
    end: "Você chegou ao fim da lista.",
    invalidCursor: "Endereço de página inválido. Volte ao início da lista.",
    invalidLimit: `O parâmetro limit deve ser um número inteiro de 1 a ${API_PAGE_SIZE_MAX}.`,
    metaDescription: (siteName: string) => `Todas as notícias do ${siteName}, das mais recentes às mais antigas: futebol, basquete, vôlei e mais.`,
    metaDescriptionHighlights: (siteName: string) => `As notícias em destaque do ${siteName}, das mais recentes às mais antigas.`,
    statusFilterLabel: "Filtrar por situação",
    statusFilter: { todas: "Todas", publicadas: "Publicadas", agendadas: "Agendadas", "em-revisao": "Em revisão", rascunhos: "Rascunhos" },
    scheduledFor: (when: string) => `Agendada para ${when}`,
  },
  taxonomy: {
    categoryKicker: "Categoria",
    authorKicker: "Autor",
    categoryNotFound: "Categoria não encontrada",
    authorNotFound: "Autor não encontrado",
    notFoundHint: "Confira o endereço ou veja todas as notícias.",
    allNews: "Ver todas as notícias",
    categoryTitle: (name: string) => `${name}: notícias`,
    authorTitle: (name: string) => `Notícias de ${name}`,
    emptyCategory: "Nenhuma notícia nesta categoria ainda.",
    emptyAuthor: "Nenhuma notícia deste autor ainda.",
    emptyHint: "Volte mais tarde ou veja todas as notícias.",
    categoryLink: (name: string) => `Mais notícias de ${name}`,
    authorLink: (name: string) => `Todas as notícias de ${name}`,
    metaCategory: (name: string, siteName: string) => `As notícias de ${name} no ${siteName}, das mais recentes às mais antigas.`,
    metaAuthor: (name: string, siteName: string) => `As notícias escritas por ${name} no ${siteName}, das mais recentes às mais antigas.`,
    teamKicker: "Time",
    teamNotFound: "Time não encontrado",
    teamTitle: (name: string) => `${name}: notícias e jogos`,
    emptyTeam: "Nenhuma notícia deste time ainda.",
    metaTeam: (name: string, siteName: string) => `Notícias, jogos ao vivo e próximos jogos do ${name} no ${siteName}.`,
    teamsLabel: "Times",
    teamsOfStory: "Times desta notícia",
    feedLink: (name: string) => `RSS de ${name}`,
  },
  /** A member's public profile: the byline box under their stories and the person page (/autor/{slug}). */
  person: {
    aboutAuthor: "Sobre o autor",
    photoAlt: (name: string) => `Foto de ${name}`,
    linksLabel: (name: string) => `${name} nas redes`,
    links: { x: "X (Twitter)", instagram: "Instagram", site: "Site" },
    allStories: (name: string) => `Todas as notícias de ${name}`,
    storiesTitle: "Notícias",
  },
  article: {
    notFound: "Notícia não encontrada ou erro ao carregar",
    backHome: "Voltar ao início",
    backToNews: "Voltar às notícias",
    edit: "Editar",
    by: "Por",
    publishedOn: "Publicado em",
    updatedOn: "Atualizado em",
    /** The date line of a story readers do not see yet, in the words of its banner (never "Publicado em"). */
    draftSavedOn: "Rascunho salvo em",
    reviewSavedOn: "Em revisão, salva em",
    scheduledFor: "Agendada para",
    readAlso: "Leia também",
    dateUnavailable: "Data não disponível",
    openMedia: "Ampliar mídia",
    openVideo: "Ver vídeo em tela cheia",
    closeMedia: "Fechar",
    lightboxTitle: (title: string) => `Mídia: ${title}`,
    credit: (kind: "image" | "video", name: string) => (kind === "video" ? `Vídeo: ${name}` : `Foto: ${name}`),
    /** Who sees a story readers do not ("a redação (…) vê"): see WHO_SEES above. */
    whoSeesUnpublished,
    draftBanner: `Rascunho: só ${whoSeesUnpublished} esta notícia. Para os leitores ela não existe.`,
    reviewBanner: `Em revisão: só ${whoSeesUnpublished} esta notícia até um editor publicá-la. Para os leitores ela não existe.`,
    scheduledBanner: (when: string) => `Agendada para ${when}: só ${whoSeesUnpublished} esta notícia até lá.`,
    previewBanner: "Pré-visualização: esta é a página como os leitores a verão quando for publicada.",
    previewLink: "Ver como os leitores verão",
    previewExit: "Sair da pré-visualização",
  },
  /** A post from another site inside an article (app/lib/embeds.ts): nothing loads from it before the click. */
  embed: {
    providers: { youtube: "YouTube", instagram: "Instagram", x: "X (Twitter)", tiktok: "TikTok" },
    load: (provider: string) => `Carregar conteúdo do ${provider}`,
    notice: (provider: string) =>
      `Ao clicar, o conteúdo será carregado do ${provider}, que pode coletar dados sobre você (como seu endereço IP e cookies).`,
    frameTitle: (provider: string) => `Conteúdo do ${provider}`,
  },
  news: {
    defaultCategory: "Geral",
    defaultAuthor: (siteName: string) => `Redação ${siteName}`,
    notFound: "Notícia não encontrada",
    imageAlt: (title: string) => title,
    /** The site's description when SITE_DESCRIPTION is not set (home page and feeds). */
    defaultSiteDescription: "Futebol, basquete, vôlei e tudo o que move o esporte brasileiro, com cobertura diária e independente.",
    /** Prefixes of unexpected failures ("Falha ao buscar notícias: …"); clients see only the prefix. */
    listFailed: "Falha ao buscar notícias",
    getFailed: "Falha ao buscar notícia",
    createFailed: "Falha ao adicionar notícia",
    updateFailed: "Falha ao atualizar notícia",
    deleteFailed: "Falha ao deletar notícia",
    /** A story's publication status (the newsroom's form and history; the draft badge on a list admins see). */
    statusLabel: { draft: "Rascunho", review: "Em revisão", scheduled: "Agendada", published: "Publicada" } as Record<
      "draft" | "review" | "scheduled" | "published",
      string
    >,
  },
  /** The delete button on a story's card (admins); the rest of the question is in app/i18n/newsroom.ts. */
  newsAdmin: {
    delete: "Excluir notícia",
  },
  /** "Ler depois": stories marked to read later, kept on the reader's device (app/lib/read-later.ts). */
  readLater: {
    save: "Ler depois",
    saved: "Salva para ler depois",
    /** The button's accessible name on a card (the card's title says which story). */
    saveStory: (title: string) => `Ler depois: ${title}`,
    pageTitle: "Ler depois",
    pageHint: "As notícias que você marca ficam guardadas neste aparelho, sem conta, e abrem mesmo sem internet.",
    empty: "Nada por aqui ainda. Toque em “Ler depois” numa notícia para guardá-la.",
    remove: "Remover",
    removeStory: (title: string) => `Remover de Ler depois: ${title}`,
    savedAt: (when: string) => `Marcada em ${when}`,
  },
  /** /sem-conexao: where a navigation without network and without a saved copy lands (the service worker). */
  offline: {
    title: "Sem conexão",
    text: "Você está sem internet e esta página não foi guardada neste aparelho. Assim que a conexão voltar, tente de novo.",
    savedTitle: "Notícias salvas neste aparelho",
    savedHint: "As últimas notícias que você abriu com conexão podem ser lidas aqui mesmo sem internet.",
    savedEmpty: "Nenhuma notícia salva ainda: as notícias que você abrir com conexão ficam guardadas aqui.",
    /** /api/news-versions without ids, with too many or with one that is not an id. */
    invalidIds: (max: number) => `Informe em "ids" de 1 a ${max} identificadores de notícia, separados por vírgula.`,
  },
  alerts: {
    /** The reader's button: follow a section, a club or the site's important news. */
    follow: "Receber alertas",
    following: "Alertas ativados",
    followMatch: "Avisar gols deste jogo",
    followingMatch: "Gols deste jogo: alertas ativados",
    /** The button's accessible description, and the line under it once on. */
    followHint: (what: string) => `Notificações neste aparelho quando houver notícia importante de ${what}. Toque de novo para parar.`,
    followGeneral: "Receber alertas de última hora",
    followingGeneral: "Alertas de última hora ativados",
    generalHint: "Notificações neste aparelho com as notícias mais importantes do site. Toque de novo para parar.",
    followMatchHint: "Notificações neste aparelho a cada gol e no fim do jogo. Toque de novo para parar.",
    working: "Ativando…",
    unsupported: "Este navegador não recebe alertas. No iPhone, adicione o site à tela de início e abra por lá.",
    denied: "As notificações deste site estão bloqueadas no navegador. Libere-as nas configurações do site e tente de novo.",
    failed: "Não foi possível ativar os alertas agora. Tente de novo em instantes.",
    stopped: "Alertas desativados neste aparelho.",
    /** API refusals (POST/DELETE /api/push/subscriptions). */
    invalidSubscription: "O navegador não enviou uma inscrição de alertas válida (endereço e chaves).",
    serviceNotAllowed: "O endereço de notificações deste navegador não é de um serviço de push aceito por este site.",
    invalidTopics: (max: number) => `Escolha de 1 a ${max} alertas válidos (geral, seção, time ou jogo).`,
    rateLimited: (minutes: number) => `Muitas mudanças de alertas deste endereço. Tente de novo em ${minutes} min.`,
    notSubscribed: "Este navegador não tem alertas ativados.",
  },
  privacy: {
    title: "Política de Privacidade",
    metaDescription: (site: string) => `Como o ${site} usa cookies e dados de navegação, e como você pode escolher o que é coletado.`,
    /** The intro names the site between its two parts. */
    introLead: "Esta política explica como o",
    introRest:
      "trata as informações de quem visita o site: o que guardamos, para quê, e o que só acontece se você escolher. Ler as notícias não depende de aceitar nada.",
    /**
     * The topics of the original policy (cookies, data collected, use, sharing with ad partners, opt-out,
     * personalisation), told as the site works: with an ad partner (ADSENSE_CLIENT) or without one. Refusing is told
     * once, under "Como recusar"; the banner says the same in short.
     */
    sections: (ads: boolean) => [
      {
        title: "Uso de cookies",
        text: ads
          ? "Ler as notícias não exige cookies. O site guarda no seu navegador só a sua escolha sobre publicidade (o cookie eef.consent, por 6 meses) " +
            "e, para quem entra na área da redação, a sessão. Cookies do parceiro de publicidade só existem se você aceitar a publicidade."
          : "Ler as notícias não exige cookies. Só quem entra na área da redação recebe um cookie, o da sessão.",
      },
      {
        title: "Dados coletados",
        text:
          "O servidor registra cada acesso — endereço IP, navegador, página pedida e horário — para manter o site seguro e no ar. " +
          "Não pedimos dados pessoais para a leitura das notícias; a contagem das “Mais lidas” é anônima (veja abaixo).",
      },
      {
        title: "Como usamos os dados",
        text: "Os registros de acesso servem para investigar falhas e ataques e medir a carga do site. Não traçamos perfis de leitores nem vendemos dados.",
      },
      {
        title: "Compartilhamento com parceiros de publicidade",
        text: ads
          ? "O site não repassa dados de leitores — nem pessoais, nem anonimizados — a parceiros de publicidade. Se você aceitar a publicidade, o " +
            "Google AdSense passa a ser carregado nas páginas e recebe do seu navegador o que qualquer site recebe (endereço IP, navegador, a página " +
            "aberta), conforme a política de privacidade do Google. Antes da sua escolha, nada do parceiro é carregado."
          : "Não há parceiros de publicidade neste site: nenhum dado de leitores — nem pessoal, nem anonimizado — é repassado a terceiros.",
      },
      {
        title: "Como recusar (opt-out)",
        text: ads
          ? "Escolha “Recusar” no aviso de publicidade ou nesta página, quando quiser: o parceiro não é carregado e os espaços de anúncio ficam vazios. " +
            "Mudar de ideia é escolher de novo aqui; apagar os cookies do navegador também desfaz a escolha, e o aviso volta a perguntar."
          : "Não há o que recusar: sem parceiros de publicidade, nada de terceiros é carregado nas páginas.",
      },
      {
        title: "Personalização de anúncios",
        text: ads
          ? "Só com o seu consentimento: aceitando, o parceiro pode usar cookies para mostrar anúncios de acordo com os seus interesses e medir seus " +
            "resultados. Sem consentimento não há anúncios do parceiro — nem personalizados, nem genéricos."
          : "Não há anúncios de parceiros, personalizados ou não.",
      },
    ],
    officerTitle: "Encarregado (LGPD)",
    officerLead: (name: string) =>
      `O encarregado pelo tratamento de dados pessoais é ${name}. A ele você pode pedir acesso, correção ou eliminação de dados seus e tirar dúvidas sobre esta política`,
    contactTitle: "Contato",
    contactLead: "Dúvidas sobre esta política ou sobre seus dados? Escreva para",
    /** What the readers' service worker keeps on the phone (app/service-worker/service-worker.ts). */
    offlineCopiesTitle: "Leitura sem conexão",
    offlineCopiesText:
      "Para você ler sem internet, o seu navegador guarda neste aparelho as últimas notícias que você abriu (até 20, com as imagens " +
      "que apareceram nelas) e as últimas páginas de seções. Essas cópias não são enviadas a ninguém e não ligam a leitura a você; uma " +
      "notícia retirada do ar sai do aparelho na próxima visita com conexão. A lista de “Ler depois” também fica só neste aparelho, " +
      "assim como o tema que você escolher (claro ou escuro). Apagar os dados do site no navegador remove tudo.",
    alertsTitle: "Alertas no celular",
    alertsText:
      "Os alertas (“Receber alertas”, “Avisar gols deste jogo”) só são ativados quando você toca no botão e o navegador pede a sua " +
      "permissão. Guardamos então o endereço de notificações que o seu navegador nos dá (criado pelo serviço de push do Google, da " +
      "Mozilla, da Apple ou da Microsoft, conforme o navegador), as chaves que cifram cada alerta e os assuntos que você segue; nada disso " +
      "tem o seu nome, e-mail ou conta, e contamos as inscrições sem ligá-las a ninguém. O texto de cada alerta passa cifrado por esse " +
      "serviço, que não consegue lê-lo. Tocar de novo no botão desativa; bloquear as notificações do site no navegador ou desinstalar " +
      "também, e a inscrição é apagada daqui no próximo alerta que o serviço recusar.",
    readsTitle: "O que contamos sem cookies",
    readsText:
      "Para montar a lista “Mais lidas”, cada notícia aberta é contada uma vez, de forma anônima, por um aviso que a própria página envia ao site: " +
      "sem cookies, sem identificar você e sem guardar o seu endereço IP. Guardamos só quantas leituras cada notícia teve em cada hora.",
    preferencesTitle: "Suas preferências de publicidade",
    preferencesText:
      "Os anúncios do site são exibidos pelo Google AdSense, e só depois que você aceitar. A escolha fica guardada neste navegador por 6 meses e pode " +
      "ser mudada aqui a qualquer momento; o que cada resposta faz está em “Como recusar” e “Personalização de anúncios”, acima.",
    noAdPartner: "Este site não usa parceiros de publicidade no momento: nenhum anúncio de terceiros é carregado.",
  },
  /** The reader's choice about the ad partner (LGPD): the first-visit banner, the privacy page, the footer. */
  consent: {
    bannerTitle: "Privacidade e publicidade",
    bannerText:
      "Usamos um parceiro de publicidade (Google AdSense) que pode usar cookies para exibir anúncios. Ele só é carregado se você aceitar; se recusar, os espaços de anúncio ficam vazios.",
    accept: "Aceitar",
    refuse: "Recusar",
    preferences: "Preferências",
    footerLink: "Preferências de publicidade",
    currentAccepted: "Sua escolha atual: anúncios do parceiro aceitos.",
    currentRefused: "Sua escolha atual: anúncios do parceiro recusados.",
    currentNone: "Você ainda não fez uma escolha.",
    invalidChoice: "Escolha inválida: use aceitar ou recusar.",
  },
  admin: {
    menu: "Menu administrativo",
    drawerTitle: "Administração",
    addNews: "Adicionar notícia",
    newsList: "Lista de notícias",
    newsroom: "Redação (todas as notícias)",
    sponsors: "Gerenciar patrocinadores",
    security: "Segurança da conta",
    profile: "Meu perfil",
    team: "Equipe",
    sectionMenu: "Seções do menu",
    teams: "Times",
    frontPage: "Capa (manchete)",
    inReview: (count: number) => `Em revisão (${count})`,
    logout: "Sair",
    close: "Fechar menu",
    editNews: "Editar notícia",
    editPageError: "Erro ao carregar página de edição",
    sponsorsTitle: "Gerenciar Patrocinadores",
    pendingText: "Esta ferramenta da redação ainda não está disponível nesta versão.",
  },
  share: {
    title: "Compartilhar",
    native: "Compartilhar",
    on: (app: string) => `Compartilhar no ${app} (abre em nova aba)`,
    copy: "Copiar link",
    copied: "Link copiado!",
    copyFailed: "Não foi possível copiar. Copie o endereço na barra do navegador.",
  },
  feeds: {
    highlightsTitle: (site: string) => `${site}: Destaques`,
    termTitle: (site: string, name: string) => `${site}: ${name}`,
    latestLink: "Últimas notícias (RSS)",
    highlightsLink: "Destaques (RSS)",
    notFound: "Não encontrado.",
    unavailable: "Serviço indisponível no momento. Tente novamente em instantes.",
  },
  events: {
    tooManyStreams: "Muitas conexões de atualização ao vivo abertas deste endereço. A página segue funcionando, sem atualizações automáticas.",
  },
  mostRead: {
    title: "Mais lidas",
    /** The admin list: each item's reads of the last 7 days. */
    readsLastWeek: (count: number) => `${count.toLocaleString("pt-BR")} ${count === 1 ? "leitura" : "leituras"} nos últimos 7 dias`,
    invalidRead: "Leitura inválida: envie o id da notícia.",
  },
  api: {
    fieldType: (field: string) => `O campo ${field} tem um tipo inválido.`,
    emptyPatch: "Nada para alterar: envie pelo menos um campo.",
    methodNotAllowed: (allowed: string) => `Método não permitido. Use ${allowed}.`,
    /** The API without a session, or with an account outside the newsroom: every role signs in (app/lib/roles.ts). */
    loginRequired: "Faça login com a sua conta da redação.",
    adminOnly: "Apenas quem faz parte da redação pode fazer isso.",
    invalidData: "Dados inválidos.",
    invalidJson: "Corpo JSON inválido.",
    jsonTooDeep: (depth: number) => `Corpo JSON inválido: listas e objetos aninhados em mais de ${depth} níveis.`,
    unsupportedMediaType: "Envie multipart/form-data ou JSON.",
  },
  errors: {
    unexpected: "Erro interno.",
    diskFull: "O servidor está sem espaço em disco e nada foi salvo. Avise o responsável pelo site e tente de novo mais tarde.",
    tryAgain: (requestId: string | null) => `Tente novamente em instantes.${requestId ? ` Se persistir, informe o código ${requestId}.` : ""}`,
    bodyTimeout: "Os dados demoraram demais para chegar e o envio foi interrompido. Tente de novo.",
    bodyTooLarge: "Requisição grande demais: os dados enviados passam do limite aceito.",
    tooManyBodies: "Envios demais ao mesmo tempo a partir deste endereço. Aguarde alguns segundos e tente de novo.",
    lengthRequired: "Requisição recusada: envie o tamanho do corpo (Content-Length).",
    assetNotFound: "Arquivo não encontrado.",
    overloadedTitle: "Muitos leitores ao mesmo tempo",
    overloadedText: "O site está com muito acesso neste instante. A página volta em alguns segundos: tente de novo.",
    pageNotFoundTitle: "Página não encontrada",
    pageNotFoundText: "O endereço que você procurou não existe ou foi removido.",
    genericTitle: "Algo deu errado",
    forbiddenTitle: "Acesso negado",
    forbiddenText: "Você não tem permissão para acessar esta página.",
    genericText: "Ocorreu um erro inesperado. Por favor, tente novamente em instantes.",
    backHome: "Voltar ao início",
    /** A page that could not be loaded because the reader's connection dropped (a navigation while offline). */
    offlineTitle: "Sem conexão",
    offlineText: "Não foi possível carregar esta página: verifique a sua conexão com a internet e tente de novo.",
    retry: "Tentar de novo",
    /** The plain-text 404 of files and resources (media, auth endpoints that are not public). */
    notFound: "Não encontrado",
    /** The plain-text 503 of a media file while the media store cannot be reached (S3 down, Drive failing). */
    mediaUnavailable: "Arquivo temporariamente indisponível. Tente de novo em instantes.",
    /** A state-changing request whose Origin (or Referer) is not the site's own. */
    originRefused: "Requisição recusada: origem não confirmada.",
    /** An API call while the database cannot be reached (503 with Retry-After): nothing was done. */
    databaseUnavailable: "O banco de dados não responde agora e nada foi feito. Tente de novo em alguns segundos.",
    databaseUnconfirmed:
      "O banco de dados não confirmou a tempo se a alteração foi gravada. Recarregue a página para conferir antes de tentar de novo.",
  },
  /** A story's live coverage as readers see it (app/components/news/live-*.tsx). */
  live: {
    badge: "AO VIVO",
    ended: "Encerrada",
    endedNotice: "Cobertura encerrada.",
    /** The ended coverage of a match (it has a scoreboard). */
    endedMatch: "Fim de jogo. Cobertura encerrada.",
    /** The article's badge once a match's coverage (it has a scoreboard) ended, in place of `ended`. */
    endedMatchBadge: "Fim de jogo",
    /** What an update tells of the match (LiveEventType), after its symbol: "32' ⚽ Gol". */
    events: {
      goal: "Gol",
      yellow_card: "Cartão amarelo",
      red_card: "Cartão vermelho",
      substitution: "Substituição",
      kickoff: "Início",
      half_time: "Intervalo",
      full_time: "Fim de jogo",
    },
    /** The minute as written on an update: "32'", "45+2'". */
    minuteMark: (minute: string) => `${minute}'`,
    /** The minute as a screen reader says it: "32 minutos", "45 minutos e 2 de acréscimo". */
    minuteSpoken: (minute: number, added: number | null) =>
      `${minute} ${minute === 1 ? "minuto" : "minutos"}${added === null ? "" : ` e ${added} de acréscimo`}`,
    updatesTitle: "Atualizações ao vivo",
    keyEventsTitle: "Lances importantes",
    keyEvent: "Lance importante",
    pinned: "Fixada",
    noUpdates: "Nenhuma atualização ainda.",
    newUpdates: (count: number) => (count === 1 ? "1 nova atualização" : `${count} novas atualizações`),
    olderUpdates: "Atualizações anteriores",
    newestUpdates: "Voltar às mais recentes",
    scoreboard: "Placar",
    at: (time: string) => `às ${time}`,
    unseenTitle: (count: number, title: string) => `(${count}) ${title}`,
    /** A card's match once the coverage ended, before the score: "Encerrado 2–1". */
    cardEnded: "Encerrado",
    cardKickoff: "Jogo",
    /** The strip of the day's matches on the home and the section pages. */
    matchesToday: "Jogos de hoje",
    clubMatches: "Jogos",
    /** Between the teams of a match still to come: "Flamengo x Palmeiras". */
    versus: "x",
    /** The score as a screen reader says it, on a card: "Flamengo 2, Palmeiras 1". */
    scoreSpoken: (home: string, homeScore: number, away: string, awayScore: number) => `${home} ${homeScore}, ${away} ${awayScore}`,
    /** Under a live story's scoreboard: "Atualizado há 3 min" (the newest update or score change). */
    updatedAgo: (ago: string) => `Atualizado ${ago}`,
    /** A plain link to load the page again (without JavaScript the page does not follow the match by itself). */
    refresh: "Atualizar",
  },
  formats: {
    /** "25/11/2026 às 10:00": a date and a time on the site's clock. */
    dateTime: (date: string, time: string) => `${date} às ${time}`,
    /** "25 de novembro de 2026, 14:05": the article's dates. */
    longDateTime: (date: string, time: string) => `${date}, ${time}`,
    /** A card's time when it was published today: "agora", "há 5 min", "há 2 h". */
    justNow: "agora",
    minutesAgo: (minutes: number) => `há ${minutes} min`,
    hoursAgo: (hours: number) => `há ${hours} h`,
  },
} as const;

export type Messages = typeof t;

/**
 * Texts for the person at the terminal: configuration refusals, `npm run admin`, the first-admin notice at start-up,
 * the report of `npm run import:firestore` and the operator commands of scripts/ (backup, restore, db:migrate,
 * media:sweep, seed:news). A separate export so the browser's bundle, which imports `t`, does not
 * carry them.
 */
export const terminal = {
  /** Every `npm run` command (app/.server/cli.server.ts). */
  /** The outer server (server/main.ts). */
  server: {
    /** `npm start` found no production build and makes one first. */
    buildMissing: "Nenhum build encontrado: executando `react-router build`…",
  },
  command: {
    /** Something the command opened was left open after its work; `handles` are Node's names for them. */
    keptAlive: (handles: string) => `O comando terminou, mas algo ficou aberto (${handles}); encerrando assim mesmo.`,
  },
  /**
   * A dependency the server or a command cannot reach when it starts (app/.server/dependencies.server.ts): one line,
   * naming what failed and where, never a password.
   */
  unreachable: {
    /** PostgreSQL at `where` (host:port) did not take the connection; `why` is one of `reasons`. */
    postgres: (where: string, why: string) =>
      `Banco de dados indisponível: o PostgreSQL em ${where} ${why}. Confira DATABASE_URL e se o PostgreSQL está no ar.`,
    /** The SQLite file could not be opened or created. */
    sqlite: (file: string, why: string) =>
      `Banco de dados indisponível: não foi possível abrir o arquivo SQLite ${file} (${why}). Confira DATABASE_URL e DATA_DIR.`,
    /** The S3 bucket did not answer its check. */
    s3: (endpoint: string, bucket: string) =>
      `Armazenamento de mídia indisponível: o S3 em ${endpoint} (bucket ${bucket}) não responde. Confira S3_ENDPOINT, S3_BUCKET e as chaves, e se o serviço está no ar.`,
    /** Any other store (local folder not writable, Google Drive not answering). */
    store: (name: string) => `Armazenamento de mídia indisponível: ${name} não responde. Confira a configuração (MEDIA_STORE) e tente de novo.`,
    storeNames: { local: "a pasta de mídia (DATA_DIR/media)", gdrive: "o Google Drive" } as Record<string, string>,
    reasons: {
      refused: "recusou a conexão (nada escuta nessa porta)",
      notFound: "não foi encontrado (o nome do servidor não existe no DNS)",
      timeout: "não respondeu a tempo",
      unreachable: "não pode ser alcançado pela rede",
      reset: "fechou a conexão",
      starting: "ainda está iniciando ou desligando",
      noDatabase: "não tem o banco de dados pedido",
      auth: "recusou o usuário ou a senha",
      tls: "recusou a conexão segura (TLS)",
      other: "não aceitou a conexão",
      /** SQLite: the file or its folder. */
      permission: "permissão negada",
      readOnly: "sistema de arquivos somente leitura",
      notADirectory: "parte do caminho não é uma pasta",
      missing: "pasta inexistente",
      isDirectory: "o caminho é uma pasta",
      diskFull: "disco cheio",
      notADatabase: "o arquivo não é um banco SQLite",
      cannotOpen: "o SQLite não conseguiu abrir o arquivo",
    },
  },
  /**
   * Refusals of the configuration (app/.server/config/env.server.ts), printed to whoever starts the server or a command.
   * The README and the tests quote several of them.
   */
  config: {
    invalid: (lines: string[]) => `Configuração inválida:\n  ${lines.join("\n  ")}`,
    invalidForProduction: (problems: string[]) => `Configuração inválida para produção:\n  ${problems.join("\n  ")}`,
    booleanFlag: "use 1/0, true/false, yes/no ou on/off",
    url: "precisa ser uma URL completa (https://…)",
    databaseUrl: "use file:caminho/para/banco.sqlite ou postgres://usuário:senha@host:5432/banco",
    email: "precisa ser um e-mail válido",
    adsenseClient: "use o id de editor do AdSense (ca-pub- seguido de números)",
    adsenseSlot: "use o id numérico do bloco de anúncios do AdSense",
    timeZone: "fuso horário IANA desconhecido (ex.: America/Sao_Paulo)",
    s3Prefix: "use um prefixo como midia/ (minúsculas, terminando em /)",
    driveFolderId: "use o id da pasta (o final do endereço dela no Drive)",
    externalOrigin: (origin: string) =>
      `${origin} não é uma origem https sem caminho (ex.: https://drive.google.com https://*.googleusercontent.com)`,
    secretTooShort: "precisa de pelo menos 32 caracteres",
    trustProxy: "use loopback, um número de saltos (ex.: 1) ou endereços/CIDRs separados por vírgula",
    admin2fa: "use optional ou required",
    smtpUrl: "use smtp://usuário:senha@host:587 ou smtps://…",
    passwordMinLength: "o mínimo aceito é 6",
    redisUrl: "use redis://host:6379",
    cdnProvider: "use varnish, fastly ou cloudflare",
    liveFanout: "use app (o próprio servidor) ou nchan (nginx com o módulo nchan na frente)",
    nchanPublishUrl: "NCHAN_PUBLISH_URL: obrigatório com LIVE_FANOUT=nchan (por exemplo http://127.0.0.1:8080/_nchan/pub)",
    workers: "use um número de 1 a 64 ou auto (um por núcleo)",
    cdnServiceId: "use o id do serviço (Fastly) ou da zona (Cloudflare), como aparece no painel",
    cdnCredentials: (provider: string) => `CDN_PURGE_TOKEN e CDN_SERVICE_ID: obrigatórios com CDN_PROVIDER=${provider}`,
    passwordMaxBelowMin: "PASSWORD_MAX_LENGTH: precisa ser maior ou igual a PASSWORD_MIN_LENGTH",
    /** One of two variables set without the other (`missing` is the one not set). */
    together: (missing: string, first: string, second: string) => `${missing}: defina ${first} e ${second} juntos`,
    notExecutable: (name: string, file: string) =>
      `${name}: "${file}" não é um programa executável (use o caminho absoluto, por exemplo /usr/bin/ffmpeg)`,
    s3BucketRequired: "S3_BUCKET: obrigatório com MEDIA_STORE=s3",
    driveClientRequired: (missing: string) => `${missing}: obrigatório com MEDIA_STORE=gdrive (ou GOOGLE_CLIENT_ID e GOOGLE_CLIENT_SECRET)`,
    siteUrlRequired:
      "SITE_URL: obrigatório em produção (o endereço público, ex.: https://www.exemplo.com.br). Para experimentar no seu computador, use npm run demo.",
    siteUrlHttps:
      "SITE_URL: precisa começar com https:// em produção (sem https os cookies de sessão viajam sem proteção). Se for de propósito, defina ALLOW_INSECURE_HTTP=1.",
    authSecretRequired:
      "AUTH_SECRET: obrigatório com PostgreSQL (DATABASE_URL): todas as instâncias precisam do mesmo segredo, com 32+ caracteres (ex.: openssl rand -hex 32).",
  },
  /** What the person running `npm run admin` reads (app/.server/admins/admin-cli.server.ts, scripts/admin.ts). */
  adminCli: {
    usage: `Uso:
  npm run admin -- create --email EMAIL [--name NOME]     cria uma conta da redação (administrador, se --role não
                                                         for dado); a senha é pedida no terminal (ou lida da
                                                         entrada padrão)
        [--role PAPEL]           reporter (Repórter), editor (Editor) ou admin (Administrador)
        [--send-link]            em vez de pedir a senha, envia por e-mail um link para a pessoa definir a dela
        [--password SENHA]       só para scripts: a senha fica no histórico do shell e visível em \`ps\`
        [--yes]                  não pergunta antes de dar acesso a uma conta que já existia, depois que o dono do
                                 e-mail definiu uma nova senha pelo link que o comando enviou
        [--replace-unverified]   apaga uma conta de mesmo e-mail que nunca confirmou o endereço e cria a nova
  npm run admin -- grant <id-ou-email> [--role PAPEL] [--yes]
                                                         dá acesso à redação (administrador, se --role não for
                                                         dado) a uma conta com e-mail confirmado
  npm run admin -- role <id-ou-email> <PAPEL>             muda o papel de quem já tem acesso
  npm run admin -- revoke <id-ou-email>                   retira o acesso (e encerra as sessões)
  npm run admin -- publisher <id-ou-email> <sim|nao>      dá ou tira o direito "publica sem revisão" (repórteres)
  npm run admin -- list                                   lista a redação, com o papel de cada conta`,
    grantUsage: "Uso: npm run admin -- grant <id-ou-email> [--role reporter|editor|admin] [--yes]",
    roleUsage: "Uso: npm run admin -- role <id-ou-email> <reporter|editor|admin>",
    invalidRole: (value: string) => `Papel inválido: "${value}". Use reporter (Repórter), editor (Editor) ou admin (Administrador).`,
    roleNoAccess: (email: string, role: string) =>
      `${email} não tem acesso à redação: o papel só muda para quem já tem. Para dar acesso: npm run admin -- grant ${email} --role ${role}`,
    roleUnchanged: (email: string, id: string, roleName: string) => `${email} (${id}) já tem o papel ${roleName}. Nada foi alterado.`,
    roleChanged: (email: string, id: string, from: string, to: string) => `${email} (${id}): papel alterado de ${from} para ${to}.`,
    otherRole: (email: string, id: string, roleName: string, role: string) =>
      `${email} (${id}) já tem acesso, com o papel ${roleName}. Para mudar o papel: npm run admin -- role ${email} ${role}`,
    revokeUsage: "Uso: npm run admin -- revoke <id-ou-email>",
    publisherUsage: 'Uso: npm run admin -- publisher <id-ou-email> <sim|nao>   (o direito "publica sem revisão" de um repórter)',
    publisherNoAccess: (email: string) => `${email} não tem acesso à redação: dê acesso antes (npm run admin -- grant ${email} --role reporter).`,
    publisherChanged: (email: string, id: string, on: boolean, role: string) =>
      `${email} (${id}): ${on ? "publica sem revisão" : "não publica mais sem revisão (as notícias dele passam pela revisão)"}.${role === "reporter" ? "" : " Editores e administradores já publicam de qualquer forma."}`,
    publisherUnchanged: (email: string, id: string, on: boolean) =>
      `${email} (${id}) ${on ? "já publicava" : "já não publicava"} sem revisão. Nada foi alterado.`,
    lastAdmin: (email: string) =>
      `${email} é o último administrador: dê o papel de administrador a outra conta antes (npm run admin -- role <outra> admin). Nada foi alterado.`,
    noTerminal: "Sem terminal para perguntar.",
    cancelled: "\nCancelado.",
    invalidOption: (option: string | undefined) => `Opção inválida${option ? ` (${option})` : ""}.`,
    unexpectedArgument: (argument: string) => `Argumento inesperado: ${argument}.`,
    emailRequired: "Informe um único e-mail válido com --email, como nome@exemplo.com.br (sem nome, vírgula, ponto e vírgula ou espaço).",
    sendLinkOrPassword: "Use --send-link ou --password, não os dois.",
    unverifiedRefusal: (email: string) =>
      `A conta ${email} existe, mas o e-mail dela nunca foi confirmado: qualquer pessoa pode tê-la criado pelo ` +
      `formulário de registro. Por segurança ela não recebe acesso de administrador.\n` +
      `Para apagá-la e criar a conta de administrador do zero: npm run admin -- create --email ${email} --replace-unverified`,
    unverifiedDeleted: (email: string, id: string) => `A conta não confirmada ${email} (${id}) foi apagada.`,
    alreadyAdmin: (email: string, id: string, roleName = "Administrador") => `${email} (${id}) já é ${roleName.toLowerCase()}.`,
    existsRepeatWithYes: (email: string) => `A conta ${email} já existe. Para dar acesso de administrador a ela, repita o comando com --yes.`,
    confirmGrant: (email: string, id: string, createdOn: string) =>
      `A conta ${email} (${id}, criada em ${createdOn}) já existe e tem o e-mail confirmado.\n` +
      `Dar acesso de administrador a ela e encerrar as sessões abertas dela? [s/N] `,
    nothingChanged: "Nada foi alterado.",
    /** `outboxDir`: where the e-mail was written instead of sent (no SMTP_URL), or null when it was sent. */
    ownershipLinkSent: (email: string, id: string, createdOn: string, outboxDir: string | null) =>
      `A conta ${email} (${id}, criada em ${createdOn}) já existe e a senha dela não foi definida por você: quem ` +
      `registrou o endereço primeiro pode não ser o dono dele. Ela ainda não recebeu acesso de administrador.\n` +
      `Um link para definir uma nova senha (válido por 1 hora) foi enviado para ${email}` +
      (outboxDir ? ` (gravado em ${outboxDir}: SMTP_URL não definido)` : "") +
      `. Ao usá-lo, a senha antiga deixa de valer e todas as sessões da conta são encerradas.\n` +
      `Depois que o dono do e-mail definir a nova senha: npm run admin -- grant ${email}`,
    ownershipPending: (email: string, requestedAt: string) =>
      `A conta ${email} ainda não pode receber acesso: o dono do e-mail precisa primeiro definir uma nova senha pelo ` +
      `link enviado em ${requestedAt} (UTC). Para enviar um novo link: npm run admin -- create --email ${email}`,
    granted: (email: string, id: string, ended: number, roleName = "Administrador") =>
      `${email} (${id}) agora é ${roleName.toLowerCase()}. A senha não foi alterada; ${ended} ${ended === 1 ? "sessão encerrada" : "sessões encerradas"}.`,
    passwordFlagWarning:
      "Aviso: --password deixa a senha no histórico do shell e visível a outros usuários em `ps`. Prefira digitá-la quando pedida.",
    passwordRequired: "Informe a senha na entrada padrão (uma linha), digite-a no terminal ou use --send-link.",
    passwordPrompt: "Senha do novo administrador: ",
    passwordRepeatPrompt: "Repita a senha: ",
    passwordsDiffer: "As senhas não conferem. Nada foi criado.",
    createFailed: (detail: string) => `Não foi possível criar a conta: ${detail}`,
    created: (email: string, id: string, roleName = "Administrador") => `${roleName} criado: ${email} (${id}). Entre em /admin/login.`,
    /** `outboxDir`: where the e-mail was written instead of sent (no SMTP_URL), or null when it was sent. */
    createdLinkSent: (email: string, id: string, outboxDir: string | null, roleName = "Administrador") =>
      `${roleName} criado: ${email} (${id}). Um link para definir a senha (válido por 1 hora) foi enviado para ${email}.` +
      (outboxDir ? ` O e-mail foi gravado em ${outboxDir} (SMTP_URL não definido).` : ""),
    notFound: (target: string) => `Nenhuma conta encontrada com id ou e-mail "${target}".`,
    revoked: (email: string, id: string, roleName = "Administrador") => `${email} (${id}) não é mais ${roleName.toLowerCase()}.`,
    wasNotAdmin: (email: string, id: string) => `${email} (${id}) já não era administrador.`,
    noAdmins: "Nenhum administrador cadastrado.",
    listLine: (userId: string, email: string | null | undefined, roleName: string, since: string) =>
      `${userId}  ${email ?? "(conta removida)"}  ${roleName}  desde ${since}`,
  },
  /** Printed at start-up when the installation has no admin (app/.server/admins/first-admin.server.ts). */
  firstAdmin: {
    demoName: "Admin de demonstração",
    demoCreated: (email: string, password: string, url: string) =>
      `\n  Administrador de demonstração criado:\n    e-mail: ${email}\n    senha:  ${password}\n  Entre em ${url}. A senha não será mostrada de novo.\n`,
    noAdmin: (url: string) =>
      `\n  Nenhum administrador cadastrado. Para entrar na redação, crie um em outro terminal (a senha é pedida):\n    npm run admin -- create --email voce@exemplo.com.br\n  e acesse ${url}\n`,
  },
  /** The terminal report of `npm run import:firestore` (scripts/import-firestore.ts, app/.server/import/). */
  import: {
    usage: "Uso: npm run import:firestore -- <arquivo-ou-pasta> [--media-dir PASTA] [--dry-run]",
    inputRequired: "Informe um arquivo ou uma pasta de exportação.",
    mediaDirNotFolder: (dir: string) => `--media-dir: ${dir} não é uma pasta`,
    driveNotConnected: "O armazenamento de mídia (Google Drive) não está conectado: conecte-o no painel ou rode sem --media-dir.",
    starting: (dryRun: boolean, input: string, where: string) => `${dryRun ? "Simulando a importação" : "Importando"} ${input} em ${where}…`,
    /** Problems in the export files, each after the file, `file:line` or `collection/id` it is about. */
    export: {
      notFound: (input: string) => `${input}: arquivo ou pasta não encontrado`,
      notFileOrFolder: (input: string) => `${input}: não é um arquivo nem uma pasta`,
      noExportFiles: (input: string) => `${input}: nenhum arquivo .json, .ndjson ou .jsonl nesta pasta`,
      invalidJson: (name: string, detail: string) => `${name}: não é um JSON válido (${detail})`,
      notCollections: (name: string) => `${name}: esperado um objeto de coleções ({"news": {…}, "sponsors": {…}})`,
      collectionsNotObject: (name: string) => `${name}: __collections__ não é um objeto de coleções`,
      collectionNotObject: (name: string, collection: string) => `${name}: a coleção ${collection} não é um objeto de documentos`,
      documentNotObject: (document: string) => `${document}: o documento não é um objeto de campos`,
      lineNotJson: (where: string) => `${where}: a linha não é um JSON válido`,
      lineShape: (where: string) => `${where}: esperado {"path": "coleção/id", "data": {…}}`,
      badPath: (where: string, documentPath: string) => `${where}: caminho de documento inválido: ${documentPath}`,
    },
    /** Reasons a document is refused (after `collection/id: `). */
    refused: {
      badId: `id do documento inválido (use até ${IMPORT_DOCUMENT_ID_MAX_LENGTH} letras, números, -, _, . ou ~)`,
      createdAt: "data de criação ausente ou inválida",
      updatedAt: "data de atualização inválida",
      highlight: "isHighlighted precisa ser verdadeiro ou falso",
      noSponsorImage: "patrocinador sem imagem utilizável (imageUrl, thumbnailUrl ou driveFileId)",
      invalidData: "dados inválidos",
      writeFailed: (detail: string) => `não foi possível gravar (${detail})`,
    },
    /** Media problems that do not refuse the document (after `collection/id: `). */
    mediaNotes: {
      badUrl: "endereço da mídia não é http(s); importada sem mídia",
      badMediaType: (value: string) => `mediaType desconhecido (${value}); importada sem mídia`,
      badDriveId: "driveFileId inválido; ignorado",
      fileRefused: (file: string, reason: string) => `arquivo ${file} não usado (${reason}); a mídia fica externa`,
      unknownType: "tipo não aceito",
      notAnImage: "não é uma imagem",
      tooLarge: (max: number) => `maior que ${megabytes(max)} MB`,
      corrupt: "imagem corrompida ou grande demais",
    },
    /** An admin document's e-mail that registration would refuse (after `admins/uid: `). */
    adminEmailInvalid: "e-mail inválido no documento (não usado); informe o e-mail da pessoa no comando",
    /** The summary printed at the end; the lines under the title are indented by the code. */
    summary: {
      title: (dryRun: boolean) => (dryRun ? "Resumo da simulação (--dry-run: nada foi gravado):" : "Resumo:"),
      counts: (collection: string, counts: { imported: number; existing: number; refused: number; externalMedia: number; copiedMedia: number }) =>
        `${collection}: ${counts.imported} importadas, ${counts.existing} já existentes, ${counts.refused} recusadas, ` +
        `${counts.externalMedia} com mídia externa, ${counts.copiedMedia} com mídia copiada`,
      admins: (count: number) => `admins: ${count} (sem conta neste site)`,
      ignored: (collection: string, count: number) => `${collection}: ${count} documento(s) ignorado(s) (coleção não importada)`,
      unreadable: (count: number) => `${count} linha(s) ou arquivo(s) ilegível(is) (veja acima)`,
      adminsTitle: "Administradores do produto original: os uids do Firebase não têm conta aqui e não podem ser reaproveitados.",
      adminsHint: "Crie uma conta para cada pessoa (a senha é pedida no terminal; com --send-link ela recebe um link por e-mail):",
      /** `email` and `uid` arrive quoted for the shell. */
      adminCommand: (email: string | null, uid: string) => `npm run admin -- create --email ${email ?? "EMAIL-DA-PESSOA"}    # uid original: ${uid}`,
      externalMediaHidden: [
        "A mídia externa só aparece para os leitores se EXTERNAL_MEDIA_ORIGINS permitir a origem dela.",
        "Origens usadas pela mídia importada que ainda não são permitidas:",
      ],
      originDrive: "(Google Drive, a do produto original)",
      originHttp: "(http: não pode ser permitida, só https; essa mídia não aparece)",
      originCheck: "(não é do Google Drive: confira de quem é antes de permitir)",
      externalMediaReview: [
        "Confira cada origem: ao permiti-la, o navegador de todo leitor passa a buscar arquivos nela. Para permitir, acrescente",
        "a origem a EXTERNAL_MEDIA_ORIGINS no .env (origens https separadas por espaço) e reinicie o servidor.",
      ],
      externalMediaCopy: [
        "Os arquivos precisam estar compartilhados como “Qualquer pessoa com o link”. Para trazê-los para este servidor,",
        "baixe-os para uma pasta (nomeados pelo id do Drive) e rode de novo com --media-dir (notícias já importadas não mudam:",
        "apague-as antes, ou troque a mídia pelo painel).",
      ],
      postgresNotified: "Servidores em execução foram avisados (PostgreSQL LISTEN/NOTIFY): as páginas se atualizam sozinhas.",
      sqliteNoticed: (seconds: number) =>
        `Servidores em execução com este arquivo SQLite percebem a mudança em até ${seconds} s: as páginas se atualizam sozinhas.`,
    },
  },
  /** `npm run backup` (scripts/backup.ts); `command` is `npm run backup` or `npm run restore`. The tests quote some. */
  backup: {
    postgresRefused: (command: string) =>
      `${command} cobre só a instalação embutida (SQLite + mídia local), e DATABASE_URL aponta para um PostgreSQL.\n` +
      '  Para o banco, use as ferramentas do PostgreSQL: pg_dump -Fc "$DATABASE_URL" > banco.dump (e pg_restore para voltar),\n' +
      "  ou os backups/snapshots automáticos do seu PostgreSQL gerenciado.",
    mediaStoreRefused: (command: string, store: string) =>
      `${command} cobre só a instalação embutida (SQLite + mídia local), e MEDIA_STORE=${store}.\n` +
      "  A mídia fica no armazenamento externo: use o versionamento, a replicação ou os backups do próprio bucket/serviço\n" +
      "  (ex.: versionamento do S3/R2/MinIO), e copie o banco SQLite à parte.",
    outInsideDataDir: (out: string, dataDir: string) => `A pasta do backup (${out}) não pode ficar dentro de DATA_DIR (${dataDir}).`,
    databaseNotFound: (file: string) => `Banco de dados não encontrado em ${file}: nada para copiar (confira DATA_DIR e DATABASE_URL).`,
    alreadyExists: (dir: string) => `Já existe um backup em ${dir}.`,
    help: "Uso: npm run backup [-- --out PASTA]   (padrão: ./backups)",
    unknownArgument: (argument: string) => `Argumento desconhecido: ${argument}\nUso: npm run backup [-- --out PASTA]`,
    created: (dir: string) => `Backup criado em ${dir}`,
    database: (size: string, sha256: string) => `  banco: ${size} (sha256 ${sha256})`,
    media: (files: number, total: string, seconds: string) => `  mídia: ${files} arquivo(s); total ${total}; ${seconds} s`,
    /** Followed by the keys, one a line. */
    missingMedia: (count: number) => `⚠ ${count} arquivo(s) de mídia citados no banco não estavam na pasta de mídia (já faltavam antes do backup):`,
    restoreHint: (dir: string) => `Para restaurar (com o servidor parado): npm run restore -- ${dir}`,
  },
  /** `npm run restore` (scripts/restore.ts). The tests quote some. */
  restore: {
    usage: "Uso: npm run restore -- PASTA_DO_BACKUP [--force] [--keep-admins] [--unsigned]   (pare o servidor antes)",
    unknownArgument: (argument: string, usage: string) => `Argumento desconhecido: ${argument}\n${usage}`,
    dirRequired: "Informe a pasta do backup: npm run restore -- backups/eef-backup-… [--force]",
    /** `signedBy`: the key id the manifest names ("" when it names none); `configured`: the id of the configured key. */
    signatureMismatch: (signedBy: string, configured: string) =>
      `A assinatura do manifesto não confere: o backup foi alterado depois de feito, ou assinado com outra chave` +
      `${signedBy ? ` (a do backup tem id ${signedBy}; a configurada, ${configured})` : ""}. Restauração recusada.`,
    signingKeyMissing: (keyFile: string) =>
      `A assinatura do manifesto não pode ser conferida: falta a chave de assinatura de backups. Defina BACKUP_SIGNING_KEY ` +
      `com a mesma chave da instalação de origem, ou copie o arquivo DATA_DIR/secrets/${keyFile} dela para cá ` +
      `(a chave nunca vai dentro do backup). Se não houver como, --unsigned restaura sem conferir (não recomendado).`,
    notSigned: (signatureFile: string) =>
      `Este backup não tem assinatura (${signatureFile}): não há como saber se foi alterado. Use --unsigned para ` +
      `restaurá-lo mesmo assim (não recomendado).`,
    notABackup: (dir: string, manifestFile: string) =>
      `${dir} não é um backup do Esporte em Foco: falta ${manifestFile} (backups incompletos terminam em .incompleto).`,
    manifestCorrupt: (manifestFile: string) => `${manifestFile} está corrompido (não é um JSON válido). Restauração recusada.`,
    manifestUnknown: (manifestFile: string, format: string) =>
      `${manifestFile} não é um manifesto de backup reconhecido (formato ${format}, versão 1 ou 2). Restauração recusada.`,
    manifestDatabase: (databaseFile: string) => `Manifesto inválido: o banco deveria ser ${databaseFile}.`,
    /** Problems of the files against the manifest, each after the file's path. */
    problem: {
      invalidEntry: (file: string) => `${file}: entrada inválida no manifesto`,
      missing: (file: string) => `${file}: arquivo ausente`,
      size: (file: string, size: number, expected: number) => `${file}: tamanho ${size}, esperado ${expected}`,
      checksum: (file: string) => `${file}: soma SHA-256 não confere`,
      notListed: (file: string) => `${file}: arquivo fora do manifesto`,
      more: (count: number) => `  … e mais ${count}`,
    },
    /** `lines`: the problems, already indented. */
    mismatch: (dir: string, lines: string[]) => `O backup em ${dir} não confere com o manifesto; restauração recusada:\n${lines.join("\n")}`,
    databaseInUse: (file: string, pids: number[]) =>
      `O banco ${file} está aberto pelo(s) processo(s) ${pids.join(", ")} (o servidor?): pare-o antes de restaurar.`,
    serverRunning: (port: number) =>
      `Um servidor do Esporte em Foco responde na porta ${port}: pare-o antes de restaurar (os arquivos estão em uso).`,
    dataDirNotEmpty: (dataDir: string, entries: string[]) =>
      `DATA_DIR (${dataDir}) já tem dados:\n${entries.map((entry) => `  ${entry}`).join("\n")}\n` +
      "Pare o servidor e rode de novo com --force para substituí-los (os atuais vão para DATA_DIR/antes-da-restauracao-…/).",
    copyMismatch: "A cópia do banco não confere com o manifesto (disco cheio?). Restauração interrompida.",
    integrityFailed: (detail: string) => `O banco do backup falhou na verificação de integridade: ${detail}`,
    unsignedWarning: "⚠ Restaurado SEM conferir a assinatura do manifesto (--unsigned).",
    restored: (createdAt: string, dataDir: string) => `Backup de ${createdAt} restaurado em ${dataDir}`,
    database: (file: string, files: number) => `  banco: ${file}; ${files} arquivo(s) de mídia e segredos`,
    movedAside: (dir: string) => `  os dados anteriores foram movidos para ${dir}`,
    accessEnded: (sessions: number, tokens: number) =>
      `  ${sessions} sessão(ões) e ${tokens} link(s) de redefinição/confirmação da época do backup foram encerrados: todos entram de novo.`,
    adminsFromBackup: (count: number) => `  administradores: os ${count} do backup (--keep-admins).`,
    adminsKept: (count: number, dropped: number) =>
      `  administradores: mantidos os ${count} de antes da restauração${dropped ? ` (${dropped} sem conta no backup ficaram de fora)` : ""}; os do backup não voltam sem --keep-admins.`,
    noAdmins: "  administradores: nenhum (os do backup não voltam sem --keep-admins). Crie um: npm run admin -- create --email voce@exemplo.com.br",
    startServer: "Pode iniciar o servidor (npm start).",
  },
  /** `npm run db:migrate` (scripts/migrate.ts). */
  migrate: {
    applied: (names: string[]) => `Migrações aplicadas: ${names.join(", ")}`,
    upToDate: "Banco de dados já está atualizado.",
  },
  /** `npm run media:sweep` (scripts/media-sweep.ts). */
  mediaSweep: {
    installation: (id: string, store: string) => `Instalação ${id} (armazenamento ${store}).`,
    refused: (reason: string) => `Recusado: ${reason}.\nConfira com --dry-run; se estiver certo, repita com --force.`,
    /** Printed after the keys, one a line. */
    wouldRemove: (count: number) => `${count} objeto(s) seriam removidos (simulação: nada foi apagado).`,
    /** Printed after the temporary files' paths, one a line. */
    wouldRemoveTemp: (count: number) => `${count} arquivo(s) temporário(s) (.part) de envios interrompidos seriam removidos.`,
    removed: (records: number, files: number, tempFiles: number) =>
      `Removidos: ${records} registro(s) de mídia, ${files} objeto(s), ${tempFiles} arquivo(s) temporário(s).`,
    skippedUnowned: (count: number) => `${count} registro(s) antigo(s) sem a marca desta instalação ficaram como estão.`,
  },
  /** `npm run seed:news` (scripts/seed-news.ts); numbers and durations come formatted. The tests quote some. */
  seedNews: {
    usage: "Uso: npm run seed:news -- --count N [--highlighted-share 0.15] [--images 60]",
    countRequired: "Informe quantas notícias criar com --count (inteiro ≥ 1).",
    highlightedShare: "--highlighted-share vai de 0 a 1 (ex.: 0.15).",
    images: "--images é um inteiro ≥ 0.",
    adding: (count: string, where: string) => `Adicionando ${count} notícias em ${where}…`,
    imagesSkipped: "Aviso: o armazenamento de mídia não está conectado; as notícias foram criadas sem imagem.",
    done: (inserted: string, duration: string, perSecond: string, highlighted: string, withImages: string) =>
      `${inserted} notícias adicionadas em ${duration} (${perSecond}/s): ` + `${highlighted} em destaque, ${withImages} com imagem.`,
  },
} as const;
