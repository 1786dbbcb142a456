/**
 * The app's icons, made from the one drawing `public/icon.svg` (no downloaded assets):
 * Chromium (the one the end-to-end tests drive) renders it at each size with a transparent
 * background, and the small sizes are packed into `public/favicon.ico` (PNG entries, which
 * every browser since 2007 reads). Run after changing the SVG: `npx tsx scripts/make-icons.ts`.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "@playwright/test";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const publicDir = path.join(root, "public");

/** Sizes inside favicon.ico: tabs, taskbars, and high-density tabs. */
const ICO_SIZES = [16, 32, 48];
/** Standalone PNGs: the web manifest's two sizes (home screens, install prompts). */
const PNG_SIZES = [192, 512];

/**
 * An ICO file holding PNG images: a 6-byte header, one 16-byte directory entry per image,
 * then the images. Width and height 256 are written as 0, as the format says.
 */
export function packIco(images: { size: number; png: Buffer }[]): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // 1 = icon
  header.writeUInt16LE(images.length, 4);
  let offset = 6 + 16 * images.length;
  const entries = images.map(({ size, png }) => {
    if (!Number.isInteger(size) || size < 1 || size > 256) throw new Error(`an ICO image is 1 to 256 pixels wide, not ${size}`);
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size === 256 ? 0 : size, 0);
    entry.writeUInt8(size === 256 ? 0 : size, 1);
    entry.writeUInt8(0, 2); // no palette
    entry.writeUInt8(0, 3); // reserved
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(png.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += png.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map((i) => i.png)]);
}

async function render(svg: string, sizes: number[]): Promise<Map<number, Buffer>> {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
  try {
    const page = await browser.newPage({ deviceScaleFactor: 1 });
    const out = new Map<number, Buffer>();
    for (const size of sizes) {
      await page.setViewportSize({ width: size, height: size });
      const src = `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;
      await page.setContent(`<html><body style="margin:0;background:transparent"><img src="${src}" width="${size}" height="${size}" style="display:block"></body></html>`);
      await page.locator("img").evaluate((img: HTMLImageElement) => img.decode());
      out.set(size, await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } }));
    }
    return out;
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  const svg = fs.readFileSync(path.join(publicDir, "icon.svg"), "utf8");
  const pngs = await render(svg, [...ICO_SIZES, ...PNG_SIZES]);
  const at = (size: number) => pngs.get(size) as Buffer;
  fs.writeFileSync(path.join(publicDir, "favicon.ico"), packIco(ICO_SIZES.map((size) => ({ size, png: at(size) }))));
  for (const size of PNG_SIZES) fs.writeFileSync(path.join(publicDir, `icon-${size}.png`), at(size));
  console.log(`wrote public/favicon.ico (${ICO_SIZES.join(", ")} px) and ${PNG_SIZES.map((s) => `public/icon-${s}.png`).join(", ")}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
