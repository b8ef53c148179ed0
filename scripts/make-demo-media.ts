/**
 * `npm run demo:media`: draws the demo content's pictures, sponsor logos and video clip (scripts/demo-media/render.ts)
 * and writes them to demo/media, which is committed: the demo seed copies those files through the normal media
 * pipeline, so a fresh installation starts in a second instead of rendering for half a minute. Run it again only to
 * change the demo's look (it needs ffmpeg for the clip: the system's or the one in node_modules).
 */
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { DEMO_MEDIA, DEMO_NEWS, DEMO_SPONSOR_COUNT } from "#app/.server/seed/demo-content.ts";
import { renderDemoImage, renderDemoVideo, renderSponsorLogo } from "./demo-media/render.ts";

const outDir = path.join(import.meta.dirname, "..", "demo", "media");
fs.mkdirSync(outDir, { recursive: true });

const written: Array<[string, number]> = [];
function save(name: string, data: Buffer) {
  fs.writeFileSync(path.join(outDir, name), data);
  written.push([name, data.length]);
}

for (const item of DEMO_NEWS) {
  if (item.media?.kind !== "image") continue;
  const drawn = await renderDemoImage(item.media.sport, item.media.variant);
  // WebP keeps the repository light (the pipeline makes every size and format from it).
  save(DEMO_MEDIA.image(item.media.sport, item.media.variant), await sharp(drawn).webp({ quality: 74, effort: 6 }).toBuffer());
}
for (let index = 0; index < DEMO_SPONSOR_COUNT; index++) save(DEMO_MEDIA.sponsorLogo(index), await renderSponsorLogo(index));
const video = await renderDemoVideo();
if (!video) {
  console.error("ffmpeg não encontrado ou falhou: o vídeo de demonstração não foi gerado.");
  process.exit(1);
}
save(DEMO_MEDIA.video, video);

for (const [name, bytes] of written) console.log(`${name.padEnd(28)} ${(bytes / 1024).toFixed(1).padStart(7)} KB`);
console.log(`${"total".padEnd(28)} ${(written.reduce((sum, [, bytes]) => sum + bytes, 0) / 1024).toFixed(1).padStart(7)} KB → ${outDir}`);
