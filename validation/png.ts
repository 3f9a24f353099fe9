/**
 * A minimal RGB raster with lines, markers and a 5×7 pixel font, encoded as PNG with node:zlib
 * (filter 0 per row, one IDAT chunk). Enough for the validation plots.
 */
import { deflateSync } from 'node:zlib'

export type Colour = readonly [number, number, number]

export interface Raster {
  width: number
  height: number
  /** RGB, row-major, top row first. */
  pixels: Uint8Array
}

export function createRaster(width: number, height: number, background: Colour): Raster {
  const pixels = new Uint8Array(width * height * 3)
  for (let i = 0; i < width * height; i++) pixels.set(background, 3 * i)
  return { width, height, pixels }
}

export function setPixel(raster: Raster, x: number, y: number, colour: Colour): void {
  const px = Math.round(x)
  const py = Math.round(y)
  if (px < 0 || py < 0 || px >= raster.width || py >= raster.height) return
  raster.pixels.set(colour, 3 * (py * raster.width + px))
}

/** A line `thickness` pixels wide (Bresenham, widened by a square brush). */
export function drawLine(
  raster: Raster,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  colour: Colour,
  thickness = 1,
): void {
  const steps = Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0), 1)
  const half = Math.floor(thickness / 2)
  for (let s = 0; s <= steps; s++) {
    const x = x0 + ((x1 - x0) * s) / steps
    const y = y0 + ((y1 - y0) * s) / steps
    for (let dx = -half; dx <= half; dx++)
      for (let dy = -half; dy <= half; dy++) setPixel(raster, x + dx, y + dy, colour)
  }
}

/** A filled square marker of side 2·radius + 1. */
export function drawMarker(raster: Raster, x: number, y: number, colour: Colour, radius = 3): void {
  for (let dx = -radius; dx <= radius; dx++)
    for (let dy = -radius; dy <= radius; dy++) setPixel(raster, x + dx, y + dy, colour)
}

// 5×7 glyphs, one string of 7 rows of 5 bits per character
const GLYPHS: Record<string, string> = {
  '0': '01110100011001110101110011000101110',
  '1': '00100011000010000100001000010001110',
  '2': '01110100010000100010001000100011111',
  '3': '11111000100010000010000011000101110',
  '4': '00010001100101010010111110001000010',
  '5': '11111100001111000001000011000101110',
  '6': '00110010001000011110100011000101110',
  '7': '11111000010001000100010000100001000',
  '8': '01110100011000101110100011000101110',
  '9': '01110100011000101111000010001001100',
  '.': '00000000000000000000000000110001100',
  '-': '00000000000000011111000000000000000',
  '=': '00000000001111100000111110000000000',
  ' ': '00000000000000000000000000000000000',
  T: '11111001000010000100001000010000100',
  Z: '11111000010001000100010001000011111',
  x: '00000000001000101010001000101010001',
  a: '00000000000111000001011111000101111',
  t: '01000010001110001000010000100100110',
  g: '00000011111000110001011110000101110',
  '/': '00000000010001000100010001000000000',
  '(': '00010001000100001000010000010000010',
  ')': '01000001000001000010000100010001000',
  '√': '00111001000010000100101000110001000',
  H: '10001100011000111111100011000110001',
  p: '00000000001111010001111101000010000',
  ρ: '00000000000111010001111101000010000',
  s: '00000000000111110000011100000111110',
  m: '00000000001101010101101011000110001',
}

/** Text at (x, y) (top left), `scale` pixels per font pixel; unknown characters are blank. */
export function drawText(
  raster: Raster,
  text: string,
  x: number,
  y: number,
  colour: Colour,
  scale = 2,
): void {
  let cursor = x
  for (const character of text) {
    const glyph = GLYPHS[character]
    if (glyph) {
      for (let row = 0; row < 7; row++)
        for (let column = 0; column < 5; column++)
          if (glyph[row * 5 + column] === '1')
            for (let sx = 0; sx < scale; sx++)
              for (let sy = 0; sy < scale; sy++)
                setPixel(raster, cursor + column * scale + sx, y + row * scale + sy, colour)
    }
    cursor += 6 * scale
  }
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    table[n] = c >>> 0
  }
  return table
})()

export function computeCrc32(bytes: Uint8Array): number {
  let crc = 0xffffffff
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const bytes = new Uint8Array(12 + data.length)
  const view = new DataView(bytes.buffer)
  view.setUint32(0, data.length)
  bytes.set(new TextEncoder().encode(type), 4)
  bytes.set(data, 8)
  view.setUint32(8 + data.length, computeCrc32(bytes.subarray(4, 8 + data.length)))
  return bytes
}

/** The raster as PNG bytes (8-bit RGB). */
export function encodePng(raster: Raster): Uint8Array {
  const { width, height, pixels } = raster
  const header = new Uint8Array(13)
  const view = new DataView(header.buffer)
  view.setUint32(0, width)
  view.setUint32(4, height)
  header[8] = 8 // bit depth
  header[9] = 2 // colour type: RGB
  const rows = new Uint8Array(height * (1 + 3 * width))
  for (let y = 0; y < height; y++) {
    rows[y * (1 + 3 * width)] = 0 // filter: none
    rows.set(pixels.subarray(3 * width * y, 3 * width * (y + 1)), y * (1 + 3 * width) + 1)
  }
  const signature = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  const parts = [
    signature,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', new Uint8Array()),
  ]
  const png = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let offset = 0
  for (const part of parts) {
    png.set(part, offset)
    offset += part.length
  }
  return png
}
