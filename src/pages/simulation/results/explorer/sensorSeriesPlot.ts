import { useQueryClient } from '@tanstack/react-query'
import { useSetAtom } from 'jotai'
import type { Sensor } from '../../../../../domain/meshes.ts'
import type { Simulation } from '../../../../../domain/projects.ts'
import { sampleRateLabel, type SensorSeries } from '../../../../../domain/sensorSampling.ts'
import { callApi } from '../../../../api/index.ts'
import { routeKey } from '../../../../queries/queries.ts'
import { addChartDatasetAtom, type ChartDatasetInput } from '../charts/chartStore.ts'
import { outputIntervalOf } from '../charts/chartModel.ts'
import { attributeAxisLabel, displayValue } from '../statistics/statisticsModel.ts'

/*
 * A sensor's samples taken while the simulation ran (GET /custom_sensors/{id}/series) as a chart
 * series: pressure against time at the solver's own rate, so that an impact lasting a few
 * milliseconds between two outputs shows. The charts place points by output number (x × the
 * output interval on the time axis), so a sample at time t sits at output t / interval.
 */

/** The message when a sensor has no samples of the run yet. */
export const NO_SERIES_MESSAGE = 'No samples yet: the sensor is sampled while the simulation runs.'

/** The chart series of a sensor's pressure samples. */
export function sensorSeriesDataset(
  sensor: Pick<Sensor, 'id' | 'name'>,
  series: SensorSeries,
  outputIntervalS: number,
): ChartDatasetInput {
  const interval = Number.isFinite(outputIntervalS) && outputIntervalS > 0 ? outputIntervalS : 1
  return {
    dataset: {
      id: `sensor-series:${sensor.id}:${series.runId ?? 0}:pressure`,
      operation: 'mean',
      attribute: 'pressure',
      subAttribute: null,
      objs: [sensor.id],
      data: series.timeS.map((t, i) => {
        const p = series.pressure[i] ?? null
        return { x: t / interval, y: p === null ? null : displayValue('pressure', p) }
      }),
    },
    name: `Pressure (${sensor.name}, ${sampleRateLabel(series.sampleRate).toLowerCase()})`,
    yLabel: attributeAxisLabel('pressure', null),
  }
}

/**
 * Plots a sensor's samples of the active run: fetches them and adds the series to the charts;
 * resolves false when there are none yet.
 */
export function usePlotSensorSeries(simulation: Simulation) {
  const queryClient = useQueryClient()
  const addChartDataset = useSetAtom(addChartDatasetAtom)
  return async (sensor: Sensor): Promise<boolean> => {
    const input = { params: { id: String(sensor.id) }, query: {} }
    const series = await queryClient.fetchQuery({
      queryKey: routeKey('getSensorSeries', input),
      queryFn: ({ signal }) => callApi('getSensorSeries', input, { signal }),
      staleTime: 0,
    })
    if (series.count === 0) return false
    addChartDataset(sensorSeriesDataset(sensor, series, outputIntervalOf(simulation)))
    return true
  }
}
