import websocket from '@fastify/websocket'
import type { FastifyInstance } from 'fastify'
import { listVolumeClips } from '../../clips/store.ts'
import { listSensorOutputStates, listSensors, readSensorSamples } from '../../sensors/store.ts'
import { StatisticsThread } from '../statistics/statisticsThread.ts'
import { ResultsSession, type ResultsSessionOptions } from './ResultsSession.ts'

/** Path of the results session websocket (spec/results.md §7 "Realtime channels"). */
export const RESULTS_PATH = '/ws/results'

/**
 * Registers websocket /ws/results: one {@link ResultsSession} per connection (frames in
 * domain/resultsProtocol.ts). Volume clips and sensor states come from their stores
 * (server/clips, server/sensors) unless the options replace them; stats.calc runs in a statistics
 * thread unless `statisticsThread` is null (then inline). Client messages are small JSON
 * (64 KiB at most); bundles go the other way as binary messages.
 */
export async function registerResultsChannel(
  app: FastifyInstance,
  options: ResultsSessionOptions,
): Promise<void> {
  if (!app.hasDecorator('websocketServer'))
    await app.register(websocket, { options: { maxPayload: 64 * 1024 } })
  const statisticsThread = options.statisticsThread === undefined ? new StatisticsThread() : null
  if (statisticsThread) app.addHook('onClose', () => statisticsThread.close())
  const sessionOptions: ResultsSessionOptions = {
    statisticsThread,
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
