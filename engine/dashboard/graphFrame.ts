/**
 * Where a graph tile's chart put its plot: the plot area in CSS px of the tile's canvas and the
 * axes' ranges. The chart worker reports it after each layout so the page can answer a pointer
 * over the chart (the value under it) without chart.js on the main thread.
 */
export interface GraphFrame {
  left: number
  right: number
  top: number
  bottom: number
  xMin: number
  xMax: number
  yMin: number
  yMax: number
  yLog: boolean
}

function fraction(value: number, min: number, max: number, log: boolean): number {
  if (log) {
    if (value <= 0 || min <= 0 || max <= min) return Number.NaN
    return (Math.log(value) - Math.log(min)) / (Math.log(max) - Math.log(min))
  }
  return max > min ? (value - min) / (max - min) : 0.5
}

/** A data point's place on the canvas, CSS px (NaN where a log axis cannot place it). */
export function pixelOf(frame: GraphFrame, x: number, y: number): { px: number; py: number } {
  const fx = fraction(x, frame.xMin, frame.xMax, false)
  const fy = fraction(y, frame.yMin, frame.yMax, frame.yLog)
  return {
    px: frame.left + fx * (frame.right - frame.left),
    py: frame.bottom - fy * (frame.bottom - frame.top),
  }
}

/**
 * The index of the point drawn nearest to a pointer's x (CSS px in the canvas), among those inside
 * the plot; null when the pointer is outside the plot area or no point is.
 */
export function nearestPointIndex(
  frame: GraphFrame,
  points: readonly { x: number; y: number }[],
  pointerX: number,
  pointerY: number,
): number | null {
  if (pointerX < frame.left || pointerX > frame.right) return null
  if (pointerY < frame.top || pointerY > frame.bottom) return null
  let best: number | null = null
  let bestDistance = Infinity
  points.forEach((point, index) => {
    if (point.x < frame.xMin || point.x > frame.xMax) return
    const { px } = pixelOf(frame, point.x, point.y)
    const distance = Math.abs(px - pointerX)
    if (distance < bestDistance) {
      bestDistance = distance
      best = index
    }
  })
  return best
}

/** Where a point's tooltip sits so the tile does not cut it: away from the nearer plot edges. */
export interface TooltipPlacement {
  /** 'right': the tooltip starts right of the point; 'left': it ends left of it. */
  horizontal: 'left' | 'right'
  vertical: 'above' | 'below'
}

/** Height (CSS px) a two-line tooltip needs above a point, with its gap. */
const TOOLTIP_HEIGHT_PX = 48

/**
 * The tooltip's side for a point at (px, py): right of a point in the left half of the plot, left
 * of one in the right half; above it unless that would leave the tile's top.
 */
export function tooltipPlacement(frame: GraphFrame, px: number, py: number): TooltipPlacement {
  return {
    horizontal: px > (frame.left + frame.right) / 2 ? 'left' : 'right',
    vertical: py - TOOLTIP_HEIGHT_PX < 0 ? 'below' : 'above',
  }
}
