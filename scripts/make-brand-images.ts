/**
 * `node scripts/make-brand-images.ts`: draws the site's raster brand images from public/images/logo.svg and writes
 * them to public/ (committed; run again only when the logo changes):
 * - icons/icon-192.png, icons/icon-512.png: the web app manifest's icons (the ball on the pitch green);
 * - icons/icon-maskable-512.png: the same with the safe zone Android masks need (the ball in the middle 60 %);
 * - icons/apple-touch-icon.png (180 px), for iOS home screens;
 * - images/og-padrao.png (1200×630): the link-preview card of news without a picture, and the publisher logo.
 */
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";

const ROOT = path.resolve(import.meta.dirname, "..");
const logo = fs.readFileSync(path.join(ROOT, "public/images/logo.svg"));
const PITCH = "#0b5d3b";
const PITCH_DARK = "#06331f";
const YELLOW = "#f5c400";

async function ball(size: number): Promise<Buffer> {
  return sharp(logo, { density: Math.ceil((72 * size) / 64) })
    .resize(size, size)
    .png()
    .toBuffer();
}

async function square(size: number, ballShare: number, file: string): Promise<void> {
  const inner = Math.round(size * ballShare);
  await sharp({ create: { width: size, height: size, channels: 4, background: PITCH } })
    .composite([{ input: await ball(inner), gravity: "centre" }])
    .png({ compressionLevel: 9 })
    .toFile(path.join(ROOT, "public", file));
}

async function card(): Promise<void> {
  const width = 1200;
  const height = 630;
  // Pitch stripes and a yellow band: the site's colours, with the ball in the middle.
  const stripes = Array.from({ length: 8 }, (_, index) =>
    index % 2 ? `<rect x="${index * 150}" y="0" width="150" height="${height}" fill="${PITCH_DARK}" fill-opacity=".35"/>` : "",
  ).join("");
  const background = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
      <rect width="${width}" height="${height}" fill="${PITCH}"/>${stripes}
      <circle cx="${width / 2}" cy="${height / 2}" r="190" fill="none" stroke="#fff" stroke-opacity=".35" stroke-width="6"/>
      <line x1="${width / 2}" y1="0" x2="${width / 2}" y2="${height}" stroke="#fff" stroke-opacity=".35" stroke-width="6"/>
      <rect y="${height - 24}" width="${width}" height="24" fill="${YELLOW}"/>
    </svg>`,
  );
  await sharp(background)
    .composite([{ input: await ball(300), gravity: "centre" }])
    .png({ compressionLevel: 9, palette: true })
    .toFile(path.join(ROOT, "public/images/og-padrao.png"));
}

fs.mkdirSync(path.join(ROOT, "public/icons"), { recursive: true });
await square(192, 0.84, "icons/icon-192.png");
await square(512, 0.84, "icons/icon-512.png");
await square(512, 0.6, "icons/icon-maskable-512.png");
await square(180, 0.84, "icons/apple-touch-icon.png");
await card();
console.log("Imagens da marca geradas em public/icons e public/images/og-padrao.png.");
