import websocket from '@fastify/websocket'
import type { FastifyInstance } from 'fastify'
import { listVolumeClips } from '../../clips/store.ts'
import { listSensorOutputStates, listSensors, readSensorSamples } from '../../sensors/store.ts'
import { StatisticsThreads } from '../statistics/statisticsThread.ts'
import { ResultsSession, type ResultsSessionOptions } from './ResultsSession.ts'

/** Path of the results session websocket (spec/results.md §7 "Realtime channels"). */
export const RESULTS_PATH = '/ws/results'

/**
 * Registers websocket /ws/results: one {@link ResultsSession} per connection (frames in
 * domain/resultsProtocol.ts). Volume clips and sensor states come from their stores
 * (server/clips, server/sensors) unless the options replace them; stats.calc runs in the statistics
 * threads (one per core) unless `statisticsThreads` is null (then inline). Client messages are small JSON
 * (64 KiB at most); bundles go the other way as binary messages.
 */
export async function registerResultsChannel(
  app: FastifyInstance,
  options: ResultsSessionOptions,
): Promise<void> {
  if (!app.hasDecorator('websocketServer'))
    await app.register(websocket, { options: { maxPayload: 64 * 1024 } })
  const statisticsThreads = options.statisticsThreads === undefined ? new StatisticsThreads() : null
  if (statisticsThreads) app.addHook('onClose', () => statisticsThreads.close())
  const sessionOptions: ResultsSessionOptions = {
    statisticsThreads,
    listVolumeClips,
    listSensors,
    listSensorOutputStates,
    readSensorSamples,
    ...options,
  }
  app.get(RESULTS_PATH, { websocket: true }, (socket) => {
    new ResultsSession(socket, sessionOptions).start()
  })
}
