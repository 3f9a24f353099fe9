/** Binary messages of the results-server session and the parsers of text frames (see resultsProtocol.ts). */
import * as v from 'valibot'
import {
  BINARY_FRAME_TYPES,
  type BinaryServerFrame,
  type ResultsClientFrame,
  ResultsClientFrameSchema,
  type ResultsServerFrame,
  ResultsServerFrameSchema,
} from './frames.ts'

/** Payloads start on this boundary so Float32/Float64 views need no copy. */
export const PAYLOAD_ALIGNMENT = 8

/**
 * One binary message: header length (u32 LE), the JSON header padded with spaces so the payload
 * starts on an 8-byte boundary, then the payload.
 */
export function encodeBinaryFrame(header: BinaryServerFrame, payload: Uint8Array): Uint8Array {
  if (header.byteLength !== payload.byteLength)
    throw new Error(`byteLength ${header.byteLength} does not match payload ${payload.byteLength}`)
  const json = new TextEncoder().encode(JSON.stringify(header))
  const headerLength = Math.ceil((4 + json.byteLength) / PAYLOAD_ALIGNMENT) * PAYLOAD_ALIGNMENT - 4
  const bytes = new Uint8Array(4 + headerLength + payload.byteLength)
  new DataView(bytes.buffer).setUint32(0, headerLength, true)
  bytes.fill(0x20, 4, 4 + headerLength)
  bytes.set(json, 4)
  bytes.set(payload, 4 + headerLength)
  return bytes
}

/** A decoded binary message: the validated header and a view (not a copy) of the payload. */
export interface DecodedBinaryFrame {
  header: BinaryServerFrame
  payload: Uint8Array
}

/** Reads a binary message; throws on a truncated message, a bad header or a length mismatch. */
export function decodeBinaryFrame(message: ArrayBuffer | Uint8Array): DecodedBinaryFrame {
  const bytes = message instanceof Uint8Array ? message : new Uint8Array(message)
  if (bytes.byteLength < 4) throw new Error('Binary frame too short')
  const headerLength = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true)
  if (4 + headerLength > bytes.byteLength) throw new Error('Binary frame header truncated')
  const text = new TextDecoder().decode(bytes.subarray(4, 4 + headerLength))
  const header = v.parse(ResultsServerFrameSchema, JSON.parse(text))
  if (!(BINARY_FRAME_TYPES as readonly string[]).includes(header.type))
    throw new Error(`${header.type} has no binary payload`)
  const binary = header as BinaryServerFrame
  const payload = bytes.subarray(4 + headerLength)
  if (payload.byteLength !== binary.byteLength)
    throw new Error(`Payload is ${payload.byteLength} bytes, header says ${binary.byteLength}`)
  return { header: binary, payload }
}

/** Parses a text frame from the server; throws a valibot error for an unknown or malformed frame. */
export function parseResultsServerFrame(text: string): ResultsServerFrame {
  return v.parse(ResultsServerFrameSchema, JSON.parse(text))
}

/** Parses a text frame from a client; throws a valibot error for an unknown or malformed frame. */
export function parseResultsClientFrame(text: string): ResultsClientFrame {
  return v.parse(ResultsClientFrameSchema, JSON.parse(text))
}
