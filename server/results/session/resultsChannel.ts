import websocket from '@fastify/websocket'
import type { FastifyInstance } from 'fastify'
import { ResultsSession, type ResultsSessionOptions } from './ResultsSession.ts'

/** Path of the results session websocket (spec/results.md §7 "Realtime channels"). */
export const RESULTS_PATH = '/ws/results'

/**
 * Registers websocket /ws/results: one {@link ResultsSession} per connection (frames in
 * domain/resultsProtocol.ts). Client messages are small JSON (64 KiB at most); bundles go the other
 * way as binary messages.
 */
export async function registerResultsChannel(
  app: FastifyInstance,
  options: ResultsSessionOptions,
): Promise<void> {
  if (!app.hasDecorator('websocketServer'))
    await app.register(websocket, { options: { maxPayload: 64 * 1024 } })
  app.get(RESULTS_PATH, { websocket: true }, (socket) => {
    new ResultsSession(socket, options).start()
  })
}
