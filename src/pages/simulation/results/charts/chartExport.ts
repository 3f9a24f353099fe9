/*
 * The chart export: CSV (';', time = output × output interval) and PNG (white background), saved
 * by the browser under the simulation's and the chart's name.
 */
import { chartExportFileName, chartToCsv, type ChartWindow } from '../../../../../domain/results.ts'
import { csvDatasetsOf } from './chartModel.ts'

/** Chart export formats. */
export const CHART_EXPORT_FORMATS = ['csv', 'png'] as const
/** One chart export format. */
export type ChartExportFormat = (typeof CHART_EXPORT_FORMATS)[number]

/** Hands a blob to the browser as a download. */
export function saveBlobAs(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob)
  const anchor = document.createElement('a')
  anchor.href = url
  anchor.download = fileName
  document.body.append(anchor)
  anchor.click()
  anchor.remove()
  // Revoked on the next task: the download has taken the URL by then.
  setTimeout(() => URL.revokeObjectURL(url), 0)
}

/** The chart's CSV as a file: its blob and its name. */
export function buildChartCsvFile(
  simulationName: string,
  window: ChartWindow,
  outputTimeIntervalS: number,
): { blob: Blob; fileName: string } {
  const csv = chartToCsv(csvDatasetsOf(window), outputTimeIntervalS)
  return {
    blob: new Blob([csv], { type: 'text/csv;charset=utf-8' }),
    fileName: chartExportFileName(simulationName, window.layout.name, 'csv'),
  }
}

/** One legend entry of the exported image. */
export interface PngLegendEntry {
  name: string
  color: string
  lineStyle: 'solid' | 'dashed' | 'none'
}

const PNG_FONT_PX = 13
const PNG_ROW_PX = 22
const PNG_PADDING_PX = 12

/**
 * The chart as a PNG on white (the canvas itself is transparent), with the chart's name above and
 * its legend below: the chart on screen has its legend in the page, not in the canvas.
 */
export function renderChartPng(
  canvas: HTMLCanvasElement,
  title: string,
  legend: readonly PngLegendEntry[],
): Promise<Blob> {
  const scale = canvas.clientWidth > 0 ? canvas.width / canvas.clientWidth : 1
  const row = PNG_ROW_PX * scale
  const padding = PNG_PADDING_PX * scale
  const copy = document.createElement('canvas')
  copy.width = canvas.width
  copy.height = canvas.height + row + legend.length * row + 2 * padding
  const context = copy.getContext('2d')
  if (!context) return Promise.reject(new Error('Could not find canvas element.'))
  context.fillStyle = '#FFFFFF'
  context.fillRect(0, 0, copy.width, copy.height)
  context.textBaseline = 'middle'
  context.fillStyle = '#23272F'
  context.font = `600 ${PNG_FONT_PX * 1.15 * scale}px sans-serif`
  context.fillText(title, padding, padding + row / 2)
  context.drawImage(canvas, 0, padding + row)
  context.font = `${PNG_FONT_PX * scale}px sans-serif`
  legend.forEach((entry, index) => {
    const y = padding + row + canvas.height + index * row + row / 2
    context.strokeStyle = entry.color
    context.fillStyle = entry.color
    context.lineWidth = 3 * scale
    context.setLineDash(entry.lineStyle === 'dashed' ? [6 * scale, 4 * scale] : [])
    if (entry.lineStyle === 'none') {
      context.beginPath()
      context.arc(padding + 9 * scale, y, 4 * scale, 0, 2 * Math.PI)
      context.fill()
    } else {
      context.beginPath()
      context.moveTo(padding, y)
      context.lineTo(padding + 18 * scale, y)
      context.stroke()
    }
    context.fillStyle = '#23272F'
    context.fillText(entry.name, padding + 26 * scale, y)
  })
  return new Promise((resolve, reject) =>
    copy.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('The chart image could not be made.'))),
      'image/png',
    ),
  )
}
