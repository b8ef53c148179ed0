/**
 * Word lists for generated news (`npm run seed:news`, `npm run bench`): invented clubs and athletes, real
 * competitions and cities, and sentence patterns per sport. Combined at random they read like a newsroom's
 * archive without copying anyone's text. Slots in patterns: {a} and {b} (two sides), {comp}, {city}, {k} (0–2),
 * {n} (1–9), {m} (10–89), {coach}, {day}.
 */

export interface SportWords {
  category: string;
  /** Who competes: clubs for team sports, athletes for the others. */
  sides: readonly string[];
  competitions: readonly string[];
  /** A title and the subtitle that goes with it. */
  stories: ReadonlyArray<readonly [title: string, subtitle: string]>;
  paragraphs: readonly string[];
}

const FIRST_NAMES = [
  "Ana",
  "Bruno",
  "Camila",
  "Diego",
  "Eduarda",
  "Felipe",
  "Gabriela",
  "Henrique",
  "Isabela",
  "João",
  "Karina",
  "Lucas",
  "Mariana",
  "Nicolas",
  "Olívia",
  "Paulo",
  "Rafaela",
  "Samuel",
  "Tainá",
  "Vitor",
  "Yasmin",
  "Caio",
  "Letícia",
  "Matheus",
  "Bianca",
  "Rodrigo",
  "Larissa",
  "Thiago",
  "Júlia",
  "Gustavo",
] as const;

const LAST_NAMES = [
  "Almeida",
  "Barros",
  "Cardoso",
  "Duarte",
  "Esteves",
  "Fontes",
  "Guimarães",
  "Hartmann",
  "Lacerda",
  "Macedo",
  "Nogueira",
  "Pacheco",
  "Queiroz",
  "Rezende",
  "Sampaio",
  "Toledo",
  "Valadares",
  "Xavier",
  "Monteiro",
  "Bittencourt",
  "Carvalho",
  "Prado",
  "Siqueira",
  "Teixeira",
  "Moura",
] as const;

/** Athletes' names, combined once: 30 × 25 invented people. */
const ATHLETES = FIRST_NAMES.flatMap((first) => LAST_NAMES.map((last) => `${first} ${last}`));

export const CITIES = [
  "São Paulo",
  "Rio de Janeiro",
  "Belo Horizonte",
  "Porto Alegre",
  "Curitiba",
  "Salvador",
  "Recife",
  "Fortaleza",
  "Manaus",
  "Belém",
  "Goiânia",
  "Florianópolis",
  "Campinas",
  "Natal",
  "Brasília",
  "Cuiabá",
  "Vitória",
  "João Pessoa",
  "Maceió",
  "Londrina",
] as const;

export const COACHES = [
  "Marcos Vieira",
  "Cláudia Fernandes",
  "Renato Lima",
  "Sérgio Mattos",
  "Patrícia Rocha",
  "Alexandre Couto",
  "Helena Brandão",
  "Jorge Antunes",
] as const;

export const DAYS = ["domingo", "segunda-feira", "terça-feira", "quarta-feira", "quinta-feira", "sexta-feira", "sábado"] as const;

/** Bylines; the rest of the news is signed by the newsroom (the site's default author). */
export const REPORTERS = ["Carla Menezes", "Fábio Antunes", "Luíza Carvalho", "Ricardo Paiva", "Beatriz Solano", "Otávio Pires"] as const;

/** Paragraphs any sport can close with. */
export const CLOSING_PARAGRAPHS = [
  '"Foi um jogo de muita entrega. Agora é descansar e pensar no próximo compromisso", disse {coach} na entrevista coletiva.',
  "A organização informou que a próxima etapa acontece em {city}, com ingressos à venda a partir de {day}.",
  "Segundo a assessoria, {n} mil torcedores acompanharam a disputa, o maior público da temporada.",
  "A transmissão na TV aberta registrou a melhor audiência do ano para a modalidade.",
  "O departamento médico vai reavaliar os atletas que saíram com dores antes da próxima rodada.",
  "Nas redes sociais, o resultado foi um dos assuntos mais comentados da noite.",
] as const;

export const SPORTS: readonly SportWords[] = [
  {
    category: "Futebol",
    sides: [
      "Atlético Serrano",
      "Esporte Clube Litoral",
      "Real Paulistano",
      "União Ribeirinha",
      "Grêmio Vale Verde",
      "Náutico do Planalto",
      "Ferroviário do Sul",
      "Sociedade Esportiva Aurora",
      "Operário Central",
      "Cruzeiro do Cerrado",
      "Tupi da Mata",
      "Estrela do Norte",
      "Botafogo Praiano",
      "Independente da Serra",
    ],
    competitions: ["Campeonato Brasileiro", "Brasileirão Série B", "Campeonato Estadual", "Campeonato do Nordeste", "Torneio Rio-São Paulo"],
    stories: [
      [
        "{a} vence {b} em {city} e assume a liderança do {comp}",
        "Com gols no segundo tempo, o time de {coach} chegou à {n}ª vitória seguida e dormiu na ponta da tabela.",
      ],
      [
        "{a} goleia {b} por {n} a 0 e sonha com o título do {comp}",
        "Diante de {m} mil torcedores em {city}, o {a} dominou do início ao fim e não deu chances ao adversário.",
      ],
      ["Virada nos acréscimos: {a} bate {b} pelo {comp}", "O {b} chegou a abrir dois gols de vantagem, mas não segurou a pressão do {a} no fim."],
      [
        "{a} e {b} empatam em {city} e seguem embolados no {comp}",
        "Em jogo truncado e com poucas chances, o empate deixou as duas torcidas insatisfeitas.",
      ],
      [
        "{a} anuncia a contratação de atacante para a sequência do {comp}",
        "A diretoria confirmou a negociação na tarde de {day}; o reforço deve estrear já na próxima rodada.",
      ],
      [
        "{coach} deixa o comando do {a} após derrota para o {b}",
        "Foi a {n}ª derrota em dez jogos; a diretoria promete anunciar o substituto até {day}.",
      ],
      [
        "{a} elimina {b} nos pênaltis e avança no {comp}",
        "Depois do 1 a 1 no tempo normal, o goleiro do {a} defendeu duas cobranças e garantiu a classificação.",
      ],
    ],
    paragraphs: [
      "O {a} começou melhor e abriu o placar aos {n} minutos, em cobrança de escanteio desviada de cabeça.",
      "O {b} reagiu no segundo tempo, adiantou a marcação e chegou a acertar a trave duas vezes.",
      "Com o resultado, o {a} soma {m} pontos no {comp} e abre vantagem sobre os perseguidores.",
      "O goleiro do {b} foi o destaque da partida, com defesas difíceis em chutes de fora da área.",
      "A arbitragem foi criticada pelos dois lados, principalmente por um pênalti não marcado no fim do primeiro tempo.",
    ],
  },
  {
    category: "Basquete",
    sides: [
      "Vale do Sol",
      "Ribeirão Basquete",
      "Cometas de Campinas",
      "Falcões do Litoral",
      "Pinheiros do Sul",
      "Titãs do Cerrado",
      "Minas Arena",
      "Corsários do Norte",
    ],
    competitions: ["NBB", "Torneio Super 8", "Campeonato Paulista de basquete", "Sul-Americano de Clubes"],
    stories: [
      [
        "{a} vence {b} na prorrogação e abre vantagem na série do {comp}",
        "O armador do {a} anotou {m} pontos e deu {n} assistências na noite de {day}.",
      ],
      [
        "Cesta no estouro do cronômetro dá ao {a} a vitória sobre o {b}",
        "A bola de três no último segundo decidiu o jogo e calou o ginásio em {city}.",
      ],
      [
        "{a} atropela {b} em {city} e garante vaga nos playoffs do {comp}",
        "Com aproveitamento de {m}% nas bolas de três, o time de {coach} não deu chances ao adversário.",
      ],
      ["{b} quebra sequência do {a} e empata a série do {comp}", "A série melhor de cinco segue em {city}, com o terceiro jogo marcado para {day}."],
    ],
    paragraphs: [
      "O {a} dominou os rebotes desde o primeiro quarto e chegou a abrir {m} pontos de vantagem.",
      "O {b} reagiu no último período com uma defesa por zona que travou o ataque adversário.",
      "O pivô do {a} terminou com um duplo-duplo: {n} pontos e {m} rebotes.",
      "A liga divulgou que o ginásio em {city} recebeu lotação máxima pela terceira vez na temporada.",
    ],
  },
  {
    category: "Vôlei",
    sides: [
      "Osasco Vôlei Clube",
      "Campinas Vôlei",
      "Blumenau Vôlei Clube",
      "Praia Clube do Sul",
      "Montes Claros Vôlei",
      "Sesi Litoral",
      "Minas Tênis Vôlei",
      "Bauru Vôlei",
    ],
    competitions: ["Superliga", "Liga das Nações", "Copa Brasil de vôlei", "Copa Sul-Americana de Clubes"],
    stories: [
      [
        "{a} vence {b} por 3 sets a {k} e vai à final da {comp}",
        "A oposta do {a} foi a maior pontuadora, com {m} pontos, e o bloqueio somou {n} pontos no jogo.",
      ],
      [
        "{a} garante vaga na decisão da {comp} com atuação impecável",
        "A final será no {day}, às 10h (horário de Brasília), com transmissão ao vivo.",
      ],
      ["Bloqueio decide e {a} supera {b} no tie-break em {city}", "Em sets equilibrados, o saque fez a diferença para o time de {coach}."],
      ["{b} surpreende o {a} e reacende a briga pela {comp}", "Com a derrota, o {a} perde a invencibilidade de {m} jogos na temporada."],
    ],
    paragraphs: [
      "O {a} venceu o primeiro set com folga, mas viu o {b} crescer no saque a partir do segundo.",
      "No tie-break, o {a} abriu {n} pontos de vantagem e administrou até o fim.",
      "A levantadora foi eleita a melhor em quadra pela distribuição de jogadas pelo meio de rede.",
      "A {comp} chega à reta final com quatro equipes separadas por apenas {n} pontos.",
    ],
  },
  {
    category: "Tênis",
    sides: ATHLETES,
    competitions: ["Aberto de São Paulo", "Challenger de Campinas", "Rio Open", "Roland Garros", "US Open", "Australian Open"],
    stories: [
      ["{a} conquista o título do {comp} e sobe no ranking mundial", "A vitória por 6/{k} e 7/5 na final leva {a} ao melhor ranking da carreira."],
      [
        "{a} vira sobre {b} e avança às quartas do {comp}",
        "Depois de perder o primeiro set, {a} salvou {n} break points e fechou o jogo no tie-break.",
      ],
      [
        "{a} cai na estreia do {comp} depois de três horas de jogo",
        "{b} confirmou o favoritismo no terceiro set; a próxima parada da temporada será em {city}.",
      ],
      ["{a} e {b} fazem final brasileira no {comp}", "É a primeira decisão entre dois brasileiros no torneio em {m} anos."],
    ],
    paragraphs: [
      "{a} cometeu duas duplas faltas no primeiro game e perdeu o saque logo de cara.",
      "Na segunda parcial, {a} passou a variar as alturas e a subir à rede, desmontando o jogo de {b}.",
      "Com a campanha no {comp}, {a} deve subir {m} posições no ranking mundial na atualização de segunda-feira.",
      "Foi o {n}º confronto entre {a} e {b} no circuito; {b} ainda leva vantagem no retrospecto.",
    ],
  },
  {
    category: "Fórmula 1",
    sides: ATHLETES,
    competitions: ["GP de São Paulo", "GP de Mônaco", "GP da Itália", "GP da Bélgica", "GP do Japão", "GP de Abu Dhabi"],
    stories: [
      ["{a} vence o {comp} e encosta no líder do campeonato", "A estratégia de uma parada garantiu {m} pontos importantes na briga pelo título."],
      ["{a} larga na pole do {comp} com volta recorde", "O brasileiro fez a volta mais rápida em 1min{m}s e largará à frente de {b}."],
      ["Chuva embaralha o {comp} e {a} termina no pódio", "A pista molhada provocou {n} abandonos; {b} venceu e assumiu a liderança do campeonato."],
      ["{a} abandona o {comp} com problema no câmbio", "A equipe investiga a falha, que já havia aparecido nos treinos livres de {day}."],
    ],
    paragraphs: [
      "{a} largou bem, manteve a posição na primeira curva e controlou o ritmo nas voltas iniciais.",
      "A entrada do carro de segurança na volta {m} mudou a corrida e obrigou as equipes a anteciparem as paradas.",
      "{b} chegou a ameaçar nas voltas finais, mas não encontrou espaço para a ultrapassagem.",
      "O campeonato segue com {n} etapas restantes e diferença de poucos pontos entre os três primeiros.",
    ],
  },
  {
    category: "MMA",
    sides: ATHLETES,
    competitions: ["Arena Fight {n}", "Desafio Nacional de MMA", "Cinturão Sul-Americano", "Torneio de Lutas de {city}"],
    stories: [
      [
        "{a} nocauteia {b} no primeiro round e mantém o cinturão",
        "A luta durou apenas {n} minutos; foi a {m}ª vitória seguida de {a} na organização.",
      ],
      ["{a} finaliza {b} com mata-leão no {comp}", "A finalização veio no segundo round, depois de uma queda no centro do octógono."],
      [
        "Decisão dividida dá a vitória a {a} na luta principal do {comp}",
        "Os três juízes viram a disputa de forma diferente, e a torcida em {city} vaiou o resultado.",
      ],
      ["{a} anuncia revanche contra {b} para o próximo {comp}", "O duelo deve acontecer em {city}, em data a ser confirmada pela organização."],
    ],
    paragraphs: [
      "{a} pressionou desde o início, encurtou a distância e buscou a queda logo no primeiro minuto.",
      "{b} resistiu no chão, mas cedeu as costas em uma tentativa de levantar.",
      "Com o resultado, {a} soma {m} vitórias e {n} derrotas na carreira profissional.",
      "A equipe de {coach} disse que a estratégia foi trabalhada durante oito semanas de campo.",
    ],
  },
  {
    category: "Atletismo",
    sides: ATHLETES,
    competitions: ["Troféu Brasil", "Grand Prix de {city}", "Mundial de Atletismo", "Sul-Americano de Atletismo"],
    stories: [
      ["{a} quebra o recorde sul-americano dos 400 m no {comp}", "A marca de 4{n}s{m} é a melhor do continente na prova desde 2011."],
      ["{a} vence a maratona de {city} com o melhor tempo da carreira", "Sob calor de {m} graus, a prova teve desistências no pelotão de elite."],
      [
        "{a} garante índice olímpico no salto em distância no {comp}",
        "O salto de 8,{k}{n} m na última tentativa também é a melhor marca do ano no país.",
      ],
      ["{a} fica com a prata no {comp} em prova decidida na foto", "Apenas {n} centésimos separaram {a} de {b} na linha de chegada."],
    ],
    paragraphs: [
      "{a} largou bem e liderou a prova desde a primeira curva.",
      "Nos metros finais, {b} chegou a se aproximar, mas {a} resistiu e cruzou a linha de chegada à frente.",
      "A comissão técnica de {coach} contou que o ciclo de preparação incluiu {n} semanas de altitude.",
      "O {comp} reuniu {m} atletas de dez países no estádio de {city}.",
    ],
  },
  {
    category: "Natação",
    sides: ATHLETES,
    competitions: ["Troféu Maria Lenk", "Mundial de Piscina Curta", "Sul-Americano de Natação", "Troféu José Finkel"],
    stories: [
      [
        "Revezamento 4x100 livre bate recorde sul-americano no {comp}",
        "O quarteto fechou a prova em 3min1{n}s{m}, quase um segundo abaixo da marca anterior.",
      ],
      [
        "{a} vence os 200 m borboleta e garante vaga no {comp}",
        "{a} nadou a segunda metade da prova em ritmo de recorde e chegou {n} centésimos à frente.",
      ],
      ["{a} leva o ouro nos 100 m peito com virada nos últimos metros", "{b} liderou até os 75 metros, mas não resistiu à chegada forte de {a}."],
      ["{a} e {b} dividem o pódio dos 50 m livre no {comp}", "A competição em {city} serve de seletiva para a temporada internacional."],
    ],
    paragraphs: [
      "{a} virou em terceiro nos primeiros 50 metros, mas acelerou na volta final.",
      "{b} liderou boa parte da prova e terminou apenas {n} centésimos atrás.",
      "A comissão técnica de {coach} comemorou o resultado, que confirma a evolução do grupo.",
      "O parque aquático de {city} recebe a próxima etapa do {comp} daqui a {m} semanas.",
    ],
  },
];
