import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { processImage } from "#app/.server/media/image-variants.server.ts";
import { DEMO_ENCODING } from "#app/.server/seed/demo-seed.server.ts";

/** A photo-like JPEG (noise over a gradient, so the encoders have work), optionally tagged with an sRGB profile. */
async function photo(width: number, height: number, withProfile: boolean): Promise<Buffer> {
  const gradient = await sharp({ create: { width, height, channels: 3, background: "#808080", noise: { type: "gaussian", mean: 128, sigma: 40 } } })
    .blur(3)
    .png()
    .toBuffer();
  const pipeline = sharp(gradient).jpeg({ quality: 92 });
  return (withProfile ? pipeline.withIccProfile("srgb") : pipeline).toBuffer();
}

/** Mean absolute difference of two encoded pictures of the same size, per channel value (0–255). */
async function meanDifference(a: Buffer, b: Buffer): Promise<number> {
  const [left, right] = await Promise.all([a, b].map((input) => sharp(input).removeAlpha().raw().toBuffer({ resolveWithObject: true })));
  expect([left!.info.width, left!.info.height]).toEqual([right!.info.width, right!.info.height]);
  let sum = 0;
  for (let index = 0; index < left!.data.length; index++) sum += Math.abs(left!.data[index]! - right!.data[index]!);
  return sum / left!.data.length;
}

describe("processImage", () => {
  it("makes the same variants from a plain picture decoded once as from one streamed per variant (colour profile)", async () => {
    const plain = await photo(1700, 850, false);
    const profiled = await photo(1700, 850, true);
    expect((await sharp(profiled).metadata()).icc).toBeDefined(); // the second one really takes the streamed path
    expect((await sharp(plain).metadata()).icc).toBeUndefined();
    const once = await processImage(plain);
    const streamed = await processImage(profiled);
    const shape = (variants: typeof once.variants) => variants.map((variant) => `${variant.format} ${variant.width}x${variant.height}`);
    expect(shape(once.variants)).toEqual(shape(streamed.variants));
    expect(shape(once.variants)).toContain("webp 1600x800");
    expect(shape(once.variants)).toContain("jpeg 400x200");
    // Both as close to the original's pixels (resized the same way for the comparison).
    for (const [index, variant] of once.variants.entries()) {
      const original = await sharp(plain).resize({ width: variant.width }).png().toBuffer();
      const reference = await meanDifference(streamed.variants[index]!.data, original);
      expect(await meanDifference(variant.data, original), shape([variant])[0]).toBeLessThan(reference + 1);
    }
  });

  it("with the demo's lighter WebP effort: the same variants, as faithful, at most 10 % larger", async () => {
    const input = await photo(1600, 900, false);
    const normal = await processImage(input);
    const light = await processImage(input, DEMO_ENCODING);
    expect(DEMO_ENCODING.webpEffort).toBeLessThan(4);
    expect(light.variants.map((variant) => `${variant.format} ${variant.width}`)).toEqual(
      normal.variants.map((variant) => `${variant.format} ${variant.width}`),
    );
    for (const [index, variant] of light.variants.entries()) {
      const reference = normal.variants[index]!;
      expect(variant.data.length, `${variant.format} ${variant.width}`).toBeLessThan(reference.data.length * 1.1);
      const original = await sharp(input).resize({ width: variant.width }).png().toBuffer();
      expect(await meanDifference(variant.data, original)).toBeLessThan((await meanDifference(reference.data, original)) + 1);
    }
  });

  it("keepWebpOriginal (project files only): a plain WebP is its own full-width variant, byte for byte; with metadata it is re-encoded", async () => {
    const plain = await sharp(await photo(1600, 900, false))
      .webp({ quality: 74 })
      .toBuffer();
    const kept = await processImage(plain, { keepWebpOriginal: true });
    expect(kept.variants.map((variant) => variant.width)).toEqual([400, 800, 1200, 1600]);
    expect(kept.variants.at(-1)!.data.equals(plain)).toBe(true);
    for (const variant of kept.variants.slice(0, -1)) expect(variant.data.equals(plain)).toBe(false);
    expect((await processImage(plain)).variants.at(-1)!.data.equals(plain)).toBe(false); // never without the option

    const withExif = await sharp(plain)
      .webp({ quality: 74 })
      .withMetadata({ exif: { IFD0: { Artist: "Fulano" } } })
      .toBuffer();
    expect((await sharp(withExif).metadata()).exif).toBeDefined();
    const reencoded = await processImage(withExif, { keepWebpOriginal: true });
    expect(reencoded.variants.at(-1)!.data.equals(withExif)).toBe(false);
    expect(reencoded.variants.at(-1)!.data.toString("latin1")).not.toContain("Fulano");
  });
});
