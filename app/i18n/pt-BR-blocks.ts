import { megabytes, NEWS_MEDIA_MAX_BYTES } from "#app/lib/limits.ts";

/**
 * Texts of the body's image and embed blocks that readers never see: the editor's dialogs (a lazy chunk of the
 * newsroom's form), the server's checks of a saved body and the inline image upload. Kept out of pt-BR.ts, which
 * every reader page loads.
 */
export const blocksText = {
  image: "Imagem",
  imageDialogTitle: "Inserir imagem",
  imageFile: "Arquivo da imagem",
  imageFileHint: `JPG, PNG, GIF ou WebP (máx. ${megabytes(NEWS_MEDIA_MAX_BYTES)}MB)`,
  imageAlt: "Descrição da imagem",
  imageAltHint: "Para quem usa leitor de tela: o que a imagem mostra?",
  imageCaption: "Legenda (opcional)",
  imageCredit: "Crédito (opcional)",
  imageCreditHint: "Aparece como “Foto: …”.",
  imageFileRequired: "Escolha o arquivo da imagem.",
  imageNotImage: "O arquivo escolhido não é uma imagem.",
  uploading: (percent: number) => `Enviando… ${percent}%`,
  processing: "Processando a imagem…",
  uploadFailed: "Não foi possível enviar a imagem. Tente de novo.",
  imageEditTitle: "Editar imagem",
  imageReplace: "Trocar imagem (opcional)",
  imageRemove: "Remover imagem",
  linkDialogTitle: "Inserir link",
  linkEditTitle: "Editar link",
  linkUrl: "Endereço do link",
  linkUrlHint: "Começa com https://, http:// ou mailto:.",
  linkText: "Texto do link (opcional)",
  linkTextHint: "As palavras que o leitor clica. Vazio: o próprio endereço.",
  linkRemove: "Remover link",
  apply: "Aplicar",
  insert: "Inserir",
  cancel: "Cancelar",
  embed: "Incorporar",
  embedDialogTitle: "Incorporar publicação",
  embedUrl: "Endereço da publicação",
  embedUrlHint:
    "Um link de vídeo do YouTube ou de publicação do Instagram, X (Twitter) ou TikTok. Do TikTok, o link completo do vídeo (tiktok.com/@perfil/video/…), não o curto vm.tiktok.com.",
  /**
   * A TikTok short link (vm.tiktok.com, vt.tiktok.com, tiktok.com/t/…): it names no video until TikTok's own site is
   * asked where it leads, which the site never does (isTikTokShortLink in app/lib/embeds.ts).
   */
  tiktokShortLink:
    "Use o link completo do vídeo (tiktok.com/@perfil/video/…), não o link curto vm.tiktok.com: abra o link curto no navegador, copie o endereço do vídeo e cole aqui.",
  /** In the editor: the block standing for an image or an embed. */
  imageBlock: (alt: string) => `Imagem: ${alt}`,
  embedBlock: (provider: string) => `Publicação do ${provider}`,
  /** After a paste: what the editor could not keep, and how to add it. */
  pasteLeftOut: ({ images, frames }: { images: number; frames: number }) =>
    [
      images === 1
        ? "1 imagem não foi colada: envie-a pelo botão “Imagem”."
        : images > 1
          ? `${images} imagens não foram coladas: envie-as pelo botão “Imagem”.`
          : "",
      frames === 1
        ? "1 vídeo ou publicação incorporada não foi colado: use o botão “Incorporar” com o link."
        : frames > 1
          ? `${frames} vídeos ou publicações incorporadas não foram colados: use o botão “Incorporar” com os links.`
          : "",
    ]
      .filter(Boolean)
      .join(" "),
  dismiss: "Fechar aviso",
  // The server's checks of a saved body.
  altRequired: "Descreva cada imagem do conteúdo para quem usa leitor de tela: o que ela mostra?",
  altTooLong: (max: number) => `A descrição de uma imagem do conteúdo pode ter no máximo ${max.toLocaleString("pt-BR")} caracteres.`,
  captionTooLong: (max: number) => `A legenda de uma imagem do conteúdo pode ter no máximo ${max.toLocaleString("pt-BR")} caracteres.`,
  creditTooLong: (max: number) => `O crédito de uma imagem do conteúdo pode ter no máximo ${max.toLocaleString("pt-BR")} caracteres.`,
  /** Which text of an image in the body holds a character that cannot be saved. */
  imageTextLabel: {
    alt: "Descrição de uma imagem do conteúdo",
    caption: "Legenda de uma imagem do conteúdo",
    credit: "Crédito de uma imagem do conteúdo",
  },
  mediaUnknown: "Uma imagem do conteúdo não foi encontrada entre as mídias do site. Envie a imagem de novo pelo botão “Imagem”.",
  embedInvalid: "Só é possível incorporar vídeos do YouTube e publicações do Instagram, X (Twitter) ou TikTok. Confira o endereço.",
  tooManyImages: (max: number) => `O conteúdo pode ter no máximo ${max} imagens.`,
} as const;
