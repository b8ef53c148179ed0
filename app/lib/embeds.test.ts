import { describe, expect, it } from "vitest";
import { blocksText } from "#app/i18n/pt-BR-blocks.ts";
import { contentBlocks, EMBED_FRAME_ORIGINS, isTikTokShortLink, parseEmbedUrl } from "./embeds.ts";

describe("parseEmbedUrl", () => {
  it("YouTube: watch, youtu.be, shorts, embed and live links, always played from youtube-nocookie.com", () => {
    const player = "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1";
    for (const link of [
      "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
      "https://youtube.com/watch?v=dQw4w9WgXcQ&t=42s&list=PL123",
      "https://m.youtube.com/watch?v=dQw4w9WgXcQ",
      "https://youtu.be/dQw4w9WgXcQ?si=abc",
      "https://www.youtube.com/shorts/dQw4w9WgXcQ",
      "https://www.youtube.com/embed/dQw4w9WgXcQ",
      "https://www.youtube.com/live/dQw4w9WgXcQ",
      "http://www.youtube.com/watch?v=dQw4w9WgXcQ",
    ]) {
      expect(parseEmbedUrl(link), link).toEqual({
        provider: "youtube",
        id: "dQw4w9WgXcQ",
        frameSrc: player,
        href: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
      });
    }
  });

  it("Instagram posts and reels, X/Twitter posts, TikTok videos", () => {
    expect(parseEmbedUrl("https://www.instagram.com/p/C1a2B3c4D5e/?igsh=xyz")).toEqual({
      provider: "instagram",
      id: "p/C1a2B3c4D5e",
      frameSrc: "https://www.instagram.com/p/C1a2B3c4D5e/embed/",
      href: "https://www.instagram.com/p/C1a2B3c4D5e/",
    });
    expect(parseEmbedUrl("https://instagram.com/reel/C9z8Y7x6W5v")?.frameSrc).toBe("https://www.instagram.com/reel/C9z8Y7x6W5v/embed/");
    expect(parseEmbedUrl("https://www.instagram.com/cbf_futebol/p/C1a2B3c4D5e/")?.frameSrc).toBe("https://www.instagram.com/p/C1a2B3c4D5e/embed/");
    for (const link of [
      "https://x.com/CBF_Futebol/status/1790000000000000001",
      "https://twitter.com/CBF_Futebol/status/1790000000000000001?s=20",
      "https://mobile.twitter.com/i/web/status/1790000000000000001",
      "https://x.com/CBF_Futebol/status/1790000000000000001/photo/1",
    ]) {
      expect(parseEmbedUrl(link), link).toEqual({
        provider: "x",
        id: "1790000000000000001",
        frameSrc: "https://platform.twitter.com/embed/Tweet.html?id=1790000000000000001&dnt=true&lang=pt",
        href: "https://x.com/i/status/1790000000000000001",
      });
    }
    expect(parseEmbedUrl("https://www.tiktok.com/@cbf.futebol/video/7350000000000000000?lang=pt-BR")).toEqual({
      provider: "tiktok",
      id: "@cbf.futebol/7350000000000000000",
      frameSrc: "https://www.tiktok.com/player/v1/7350000000000000000",
      href: "https://www.tiktok.com/@cbf.futebol/video/7350000000000000000",
    });
  });

  it("every player comes from an origin the CSP's frame-src allows", () => {
    for (const link of [
      "https://youtu.be/dQw4w9WgXcQ",
      "https://www.instagram.com/p/C1a2B3c4D5e/",
      "https://x.com/a/status/1",
      "https://www.tiktok.com/@a/video/1",
    ]) {
      const origin = new URL(parseEmbedUrl(link)?.frameSrc ?? "about:blank").origin;
      expect(EMBED_FRAME_ORIGINS as readonly string[]).toContain(origin);
    }
  });

  it("refuses look-alike hosts, other paths, malformed ids and anything that is not a bare link", () => {
    for (const text of [
      "https://www.youtube.com.evil.example/watch?v=dQw4w9WgXcQ",
      "https://evil.example/youtube.com/watch?v=dQw4w9WgXcQ",
      "https://notyoutube.com/watch?v=dQw4w9WgXcQ",
      "https://www.youtube.com/watch?v=dQw4w9WgXc",
      "https://www.youtube.com/watch?v=dQw4w9WgXcQ%22onload%3D",
      'https://www.youtube.com/watch?v=dQw4w9WgXc"',
      "https://www.youtube.com/watch?v=<script>aaa",
      "https://www.youtube.com/channel/UC123",
      "https://youtu.be/dQw4w9WgXcQ/extra",
      "https://user:pass@www.youtube.com/watch?v=dQw4w9WgXcQ",
      "https://www.youtube.com:8443/watch?v=dQw4w9WgXcQ",
      "javascript:alert(1)//www.youtube.com/watch?v=dQw4w9WgXcQ",
      "ftp://www.youtube.com/watch?v=dQw4w9WgXcQ",
      "veja https://youtu.be/dQw4w9WgXcQ",
      "https://youtu.be/dQw4w9WgXcQ e mais",
      "https://www.instagram.com/cbf_futebol/",
      "https://www.instagram.com/p/a%2Fb/",
      "https://www.instagram.com/p/ab/",
      "https://x.com/CBF_Futebol",
      "https://x.com/CBF_Futebol/status/12abc",
      "https://x.com/CBF_Futebol/status/1/likes",
      "https://www.tiktok.com/@cbf/video/abc",
      "https://www.tiktok.com/cbf/video/1",
      "https://vm.tiktok.com/ZM123abc/",
      "",
    ]) {
      expect(parseEmbedUrl(text), text).toBeNull();
    }
  });
});

describe("contentBlocks", () => {
  it("text without a link alone on a line is one text block, exactly as written", () => {
    const text = "Primeiro parágrafo.\n\n  Veja https://youtu.be/dQw4w9WgXcQ no texto.\n<b>não é HTML</b>\n";
    expect(contentBlocks(text)).toEqual([{ type: "text", text }]);
  });

  it("a link alone on a line (spaces around allowed) becomes an embed between the text around it", () => {
    const blocks = contentBlocks("Antes do jogo.\n\n  https://youtu.be/dQw4w9WgXcQ  \n\nDepois do jogo.\nFim.");
    expect(blocks.map((block) => (block.type === "text" ? block.text : block.embed.provider))).toEqual([
      "Antes do jogo.",
      "youtube",
      "Depois do jogo.\nFim.",
    ]);
  });

  it("two embeds in a row, at the start and at the end", () => {
    const blocks = contentBlocks("https://x.com/a/status/1\nhttps://www.tiktok.com/@a/video/2\n\nmeio\nhttps://www.instagram.com/p/C1a2B3c4D5e/");
    expect(blocks.map((block) => (block.type === "text" ? block.text : block.embed.provider))).toEqual(["x", "tiktok", "meio", "instagram"]);
  });
});

describe("TikTok short links", () => {
  it("are recognised (to be refused with their own message), never embedded: the code in them is not a video id", () => {
    for (const link of [
      "https://vm.tiktok.com/ZMabc123/",
      "https://vt.tiktok.com/ZSxyz/",
      " https://vm.tiktok.com/ZMabc123 ",
      "https://VM.TikTok.com/ZMabc123/",
      "https://www.tiktok.com/t/ZTRabc123/",
      "https://tiktok.com/t/ZTRabc123",
    ]) {
      expect(isTikTokShortLink(link), link).toBe(true);
      expect(parseEmbedUrl(link.trim()), link).toBeNull();
    }
    for (const link of [
      "https://www.tiktok.com/@clube/video/7234567890123456789",
      "https://vm.tiktok.com.evil.example/x",
      "https://evil.example/t/ZTRabc123",
      "https://vm.tiktok.com/",
      "javascript://vm.tiktok.com/x",
      "não é link",
    ]) {
      expect(isTikTokShortLink(link), link).toBe(false);
    }
  });

  it("the embed dialog's words promise only what works: the full link, and the short one refused by name", () => {
    expect(blocksText.embedUrlHint).toContain("tiktok.com/@perfil/video/");
    expect(blocksText.embedUrlHint).toContain("não o curto vm.tiktok.com");
    expect(blocksText.tiktokShortLink).toMatch(/^Use o link completo do vídeo \(tiktok\.com\/@perfil\/video\/…\), não o link curto vm\.tiktok\.com/);
  });
});
