import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { packIco } from "./make-icons";

const publicDir = path.resolve(__dirname, "..", "public");
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The width and height a PNG's IHDR chunk states. */
function pngSize(png: Buffer): [number, number] {
  expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  return [png.readUInt32BE(16), png.readUInt32BE(20)];
}

/** The images of an ICO file, read back by its directory. */
function readIco(ico: Buffer): { width: number; height: number; png: Buffer }[] {
  expect([ico.readUInt16LE(0), ico.readUInt16LE(2)]).toEqual([0, 1]);
  return Array.from({ length: ico.readUInt16LE(4) }, (_, i) => {
    const at = 6 + 16 * i;
    const size = ico.readUInt32LE(at + 8);
    const offset = ico.readUInt32LE(at + 12);
    return { width: ico.readUInt8(at) || 256, height: ico.readUInt8(at + 1) || 256, png: ico.subarray(offset, offset + size) };
  });
}

describe("the app's icons", () => {
  it("public/favicon.ico holds 16, 32 and 48 px PNGs whose directory matches their own headers", () => {
    const images = readIco(fs.readFileSync(path.join(publicDir, "favicon.ico")));
    expect(images.map((i) => i.width)).toEqual([16, 32, 48]);
    for (const image of images) expect(pngSize(image.png)).toEqual([image.width, image.height]);
  });

  it("the manifest's PNGs have the sizes it states", () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(publicDir, "manifest.webmanifest"), "utf8")) as { icons: { src: string; sizes: string }[] };
    for (const icon of manifest.icons.filter((i) => i.src.endsWith(".png"))) {
      const [w, h] = pngSize(fs.readFileSync(path.join(publicDir, icon.src.replace(/^\//, ""))));
      expect(`${w}x${h}`).toBe(icon.sizes);
    }
  });

  it("packIco writes 256 as 0 and refuses sizes the format cannot state", () => {
    const png = Buffer.concat([PNG_SIGNATURE, Buffer.alloc(17)]);
    const ico = packIco([{ size: 256, png }]);
    expect(ico.readUInt8(6)).toBe(0);
    expect(readIco(ico)[0]?.png.equals(png)).toBe(true);
    expect(() => packIco([{ size: 300, png }])).toThrow(/1 to 256/);
  });
});
