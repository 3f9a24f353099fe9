/**
 * The validation plots (PNG through png.ts): simple axes, curves and markers.
 */
import type { Colour } from './png.ts'
import { createRaster, drawLine, drawMarker, drawText, encodePng } from './png.ts'

export interface Curve {
  points: readonly (readonly [number, number])[]
  colour: Colour
  /** Line width; 0 draws markers only. */
  width: number
}

export interface PlotSpec {
  xLabel: string
  yLabel: string
  xMax: number
  yMin?: number
  yMax: number
  xMin?: number
  /** Grid step on each axis. */
  xStep: number
  yStep: number
  curves: Curve[]
}

export const COLOURS = {
  black: [0, 0, 0],
  blue: [70, 110, 220],
  red: [220, 60, 50],
  green: [40, 150, 70],
  orange: [230, 140, 30],
  grey: [150, 150, 150],
} as const satisfies Record<string, Colour>

/** Draws a plot 720 × 480 (the curves' meaning is told beside it, in results.md). */
export function plot(spec: PlotSpec): Uint8Array {
  const width = 720
  const height = 480
  const left = 70
  const right = 20
  const top = 20
  const bottom = 60
  const xMin = spec.xMin ?? 0
  const yMin = spec.yMin ?? 0
  const raster = createRaster(width, height, [255, 255, 255])
  const px = (x: number) => left + ((x - xMin) / (spec.xMax - xMin)) * (width - left - right)
  const py = (y: number) =>
    height - bottom - ((y - yMin) / (spec.yMax - yMin)) * (height - top - bottom)
  const grid: Colour = [215, 215, 215]
  const black: Colour = COLOURS.black
  for (let x = xMin; x <= spec.xMax + 1e-9; x += spec.xStep) {
    drawLine(raster, px(x), py(yMin), px(x), py(spec.yMax), grid)
    drawText(raster, String(Number(x.toFixed(3))), px(x) - 5, py(yMin) + 8, black)
  }
  for (let y = yMin; y <= spec.yMax + 1e-9; y += spec.yStep) {
    drawLine(raster, px(xMin), py(y), px(spec.xMax), py(y), grid)
    drawText(raster, String(Number(y.toFixed(3))), 4, py(y) - 7, black)
  }
  drawLine(raster, px(xMin), py(yMin), px(spec.xMax), py(yMin), black, 2)
  drawLine(raster, px(xMin), py(yMin), px(xMin), py(spec.yMax), black, 2)
  drawText(raster, spec.xLabel, width / 2 - 60, height - 26, black)
  drawText(raster, spec.yLabel, left + 10, 4, black)
  const inside = (x: number, y: number) =>
    x >= xMin && x <= spec.xMax && y >= yMin && y <= spec.yMax
  for (const curve of spec.curves) {
    const points = curve.points.filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y))
    if (curve.width === 0) {
      for (const [x, y] of points) if (inside(x, y)) drawMarker(raster, px(x), py(y), curve.colour, 3)
    } else {
      for (let i = 1; i < points.length; i++) {
        const [x0, y0] = points[i - 1]!
        const [x1, y1] = points[i]!
        if (!inside(x0, y0) || !inside(x1, y1)) continue
        drawLine(raster, px(x0), py(y0), px(x1), py(y1), curve.colour, curve.width)
      }
    }
  }
  return encodePng(raster)
}
