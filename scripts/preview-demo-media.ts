/**
 * Writes every demo image (each sport, variants 0 and 1), the sponsor logos and
 * the demo video into a folder so they can be inspected by eye.
 *
 *   node scripts/preview-demo-media.ts /tmp/demo-preview
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  renderDemoImage,
  renderDemoVideo,
  renderSponsorLogo,
  type DemoSport,
} from "../app/.server/seed/demo-media.server.ts";

const SPORTS: DemoSport[] = ["futebol", "basquete", "volei", "tenis", "natacao", "corrida", "automobilismo", "ciclismo"];

const outDir = resolve(process.argv[2] ?? "demo-preview");
mkdirSync(outDir, { recursive: true });

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const save = (name: string, data: Buffer) => {
  writeFileSync(join(outDir, name), data);
  console.log(`${name.padEnd(28)} ${kb(data.length)}`);
};

for (const sport of SPORTS) {
  for (const variant of [0, 1]) {
    const started = performance.now();
    const jpeg = await renderDemoImage(sport, variant);
    save(`${sport}-${variant}.jpg`, jpeg);
    console.log(`  rendered in ${Math.round(performance.now() - started)} ms`);
  }
}
for (let i = 0; i < 4; i++) save(`patrocinador-${i}.png`, await renderSponsorLogo(i));

const video = await renderDemoVideo();
if (video) save("video-demo.mp4", video);
else console.log("video-demo.mp4              skipped (ffmpeg not available or failed)");

console.log(`\nWrote preview files to ${outDir}`);
