/** The sports the demo illustrations show (scripts/demo-media draws them; demo/media holds the files). */
export type DemoSport = "futebol" | "basquete" | "volei" | "tenis" | "natacao" | "corrida" | "automobilismo" | "ciclismo";

export interface DemoNews {
  title: string;
  subtitle: string;
  fullContent: string;
  category: string;
  author?: string;
  isHighlighted: boolean;
  /** The clubs of DEMO_TEAMS the story is about. */
  teams?: string[];
  /** Hours before the seed runs, so the demo has a believable timeline. */
  hoursAgo: number;
  media: { kind: "image"; sport: DemoSport; variant: number } | { kind: "video" } | null;
}

/** The files of demo/media, committed (made by `npm run demo:media`). */
export const DEMO_MEDIA = {
  image: (sport: DemoSport, variant: number) => `${sport}-${variant}.webp`,
  video: "melhores-lances.mp4",
  sponsorLogo: (index: number) => `patrocinador-${index + 1}.png`,
};

/** The desk's list of clubs in the demo (/times): invented, like the rest. */
export const DEMO_TEAMS = ["Atlético Serrano", "Esporte Clube Litoral", "União Central", "Real Planalto"];

/** Fictional demo news: clearly invented teams and people, written like a real newsroom would. */
export const DEMO_NEWS: DemoNews[] = [
  {
    title: "Virada histórica: Atlético Serrano vence o clássico nos acréscimos e assume a liderança",
    subtitle:
      "Depois de sair perdendo por 2 a 0, o time da serra marcou três gols no segundo tempo e dormiu na ponta da tabela pela primeira vez na temporada.",
    fullContent:
      'O Estádio das Araucárias viveu uma noite para entrar na história.\n\nO Atlético Serrano saiu para o intervalo perdendo por 2 a 0 para o Esporte Clube Litoral, com uma atuação apagada e vaiado pela torcida. O técnico Marcos Vieira mexeu no time: colocou dois atacantes e adiantou a marcação.\n\nAos 18 minutos, Dudu Ferraz diminuiu de cabeça. O empate veio aos 37, em cobrança de falta de Renan Salles. E, aos 49, o zagueiro Thiago Lopes aproveitou o rebote do goleiro e virou o jogo.\n\n"Ninguém desistiu. A torcida nos empurrou o tempo todo", disse o capitão após a partida.\n\nCom o resultado, o Serrano chega a 41 pontos e assume a liderança isolada do campeonato.',
    category: "Futebol",
    isHighlighted: true,
    teams: ["Atlético Serrano", "Esporte Clube Litoral"],
    hoursAgo: 2,
    media: { kind: "image", sport: "futebol", variant: 0 },
  },
  {
    title: "Seleção feminina de vôlei garante vaga na final com atuação impecável",
    subtitle: "Em três sets diretos, as brasileiras dominaram o bloqueio e o saque e agora decidem o título no domingo.",
    fullContent:
      "A seleção brasileira feminina de vôlei não deu chances às adversárias na semifinal: 25/19, 25/21 e 25/17.\n\nA oposta Carla Menezes foi a maior pontuadora, com 19 pontos, e o bloqueio brasileiro somou 14 pontos no jogo.\n\nA final será no domingo, às 10h (horário de Brasília).",
    category: "Vôlei",
    isHighlighted: true,
    hoursAgo: 5,
    media: { kind: "image", sport: "volei", variant: 0 },
  },
  {
    title: "Vídeo: os melhores lances da rodada do Brasileiro de basquete",
    subtitle: "Enterradas, tocos e uma cesta de três no estouro do cronômetro marcaram a 12ª rodada.",
    fullContent:
      "A 12ª rodada do Brasileiro de basquete teve de tudo.\n\nNo jogo mais equilibrado, o Vale do Sol venceu o Ribeirão por 88 a 86 com uma bola de três de Léo Batista no último segundo.\n\nConfira os melhores momentos no vídeo acima.",
    category: "Basquete",
    isHighlighted: false,
    hoursAgo: 9,
    media: { kind: "video" },
  },
  {
    title: "Joana Prado conquista o título no saibro e sobe no ranking mundial",
    subtitle: "A tenista de 22 anos venceu a final em sets diretos e chega ao melhor ranking da carreira.",
    fullContent:
      "Joana Prado confirmou o favoritismo e venceu a final do torneio por 6/3 e 7/5.\n\nCom o título, a brasileira deve aparecer entre as 40 melhores do mundo na atualização do ranking desta segunda-feira.",
    category: "Tênis",
    isHighlighted: false,
    hoursAgo: 20,
    media: { kind: "image", sport: "tenis", variant: 0 },
  },
  {
    title: "Natação: revezamento 4x100 livre bate recorde sul-americano",
    subtitle: "O quarteto brasileiro nadou em 3min10s42 e chega como candidato a medalha no Mundial.",
    fullContent:
      "O revezamento 4x100 m livre masculino quebrou o recorde sul-americano na seletiva nacional.\n\nA equipe fechou a prova em 3min10s42, quase meio segundo abaixo da marca anterior.",
    category: "Natação",
    isHighlighted: true,
    hoursAgo: 30,
    media: { kind: "image", sport: "natacao", variant: 0 },
  },
  {
    title: "Maratona da cidade terá percurso novo e largada às 6h",
    subtitle: "Organização divulgou o trajeto de 42 km, que passa pela orla e termina no parque central.",
    fullContent:
      "A maratona da cidade, marcada para o próximo mês, terá percurso inédito.\n\nA largada será às 6h para fugir do calor. As inscrições seguem abertas até o dia 30.\n\nSerão 12 postos de hidratação ao longo do trajeto.",
    category: "Atletismo",
    isHighlighted: false,
    hoursAgo: 44,
    media: { kind: "image", sport: "corrida", variant: 0 },
  },
  {
    title: "Stock Car: pole position decidida por dois milésimos",
    subtitle: "Treino classificatório mais apertado do ano definiu o grid da etapa de domingo.",
    fullContent:
      "Apenas dois milésimos de segundo separaram os dois primeiros colocados no treino classificatório.\n\nA corrida terá 30 voltas e transmissão a partir das 13h.",
    category: "Automobilismo",
    isHighlighted: false,
    hoursAgo: 60,
    media: { kind: "image", sport: "automobilismo", variant: 0 },
  },
  {
    title: "Ciclismo: Volta do Interior terá etapa de montanha inédita",
    subtitle: "A prova de seis dias ganhou uma subida de 14 km que promete decidir a classificação geral.",
    fullContent:
      "A Volta do Interior anunciou seu percurso completo, com uma etapa de montanha inédita no quarto dia.\n\nSerão 820 km no total, com equipes de cinco países.",
    category: "Ciclismo",
    author: "Paula Andrade",
    isHighlighted: false,
    hoursAgo: 80,
    media: { kind: "image", sport: "ciclismo", variant: 0 },
  },
  {
    title: "Base do Litoral revela três jogadores convocados para a seleção sub-17",
    subtitle: "O clube comemora o trabalho das categorias de base, que já cedeu nove atletas à seleção desde 2024.",
    fullContent:
      "Três jogadores do Esporte Clube Litoral foram convocados para a seleção sub-17.\n\nOs atletas se apresentam na próxima semana para a preparação do Sul-Americano da categoria.",
    category: "Futebol",
    isHighlighted: false,
    teams: ["Esporte Clube Litoral"],
    hoursAgo: 100,
    media: { kind: "image", sport: "futebol", variant: 1 },
  },
  {
    title: "Calendário de transmissões do fim de semana",
    subtitle: "Veja onde assistir aos principais jogos de futebol, vôlei e basquete deste sábado e domingo.",
    fullContent:
      "Sábado\n- 16h: Futebol, Atlético Serrano x União Central\n- 19h: Vôlei, final da Superliga feminina\n\nDomingo\n- 10h: Basquete, Vale do Sol x Ribeirão\n- 16h: Futebol, Esporte Clube Litoral x Real Planalto",
    category: "Geral",
    isHighlighted: false,
    teams: ["Atlético Serrano", "União Central", "Esporte Clube Litoral", "Real Planalto"],
    hoursAgo: 120,
    media: null,
  },
];

export const DEMO_SPONSOR_COUNT = 4;
