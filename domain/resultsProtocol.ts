/**
 * The results-server session (websocket /ws/results; spec/results.md §7 "Realtime channels"):
 * fetch.available_outputs, fetch.info, fetch.data, sys.sync, stats.info, stats.calc and cancel.
 *
 * Every frame is tagged by `type` and carries the `requestId` the client chose; replies echo it.
 * JSON frames travel as text messages. Frames with a payload (bundle, attribute, geometry, mask)
 * travel as one binary message: u32 little-endian header length, the UTF-8 JSON header padded with
 * spaces to an 8-byte boundary, then `byteLength` payload bytes (Arrow IPC), so the payload can be
 * viewed as typed arrays without a copy.
 */
export * from './resultsProtocol/frames.ts'
export * from './resultsProtocol/framing.ts'
