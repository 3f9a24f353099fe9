/** The dashboard's chart worker: wiring only (engine/dashboard/graphChart.ts draws). */
import {
  createGraphChartHost,
  type GraphChartIntent,
  type GraphChartReport,
} from '../engine/dashboard/graphChart.ts'

const host = createGraphChartHost((message: GraphChartReport) => postMessage(message))
addEventListener('message', (event: MessageEvent<GraphChartIntent>) => host.handle(event.data))
