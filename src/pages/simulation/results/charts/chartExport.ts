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

/** The chart canvas drawn over white (the canvas itself is transparent) as a PNG. */
export function renderChartPng(canvas: HTMLCanvasElement): Promise<Blob> {
  const copy = document.createElement('canvas')
  copy.width = canvas.width
  copy.height = canvas.height
  const context = copy.getContext('2d')
  if (!context) return Promise.reject(new Error('Could not find canvas element.'))
  context.fillStyle = '#FFFFFF'
  context.fillRect(0, 0, copy.width, copy.height)
  context.drawImage(canvas, 0, 0)
  return new Promise((resolve, reject) =>
    copy.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('The chart image could not be made.'))),
      'image/png',
    ),
  )
}
