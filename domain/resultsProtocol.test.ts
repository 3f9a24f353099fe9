import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  ResultsServerFrameSchema,
  decodeBinaryFrame,
  encodeBinaryFrame,
  parseResultsClientFrame,
  parseResultsServerFrame,
  type BinaryServerFrame,
} from './resultsProtocol.ts'

describe('client frames', () => {
  it('parses a fetch.data request with bundle true', () => {
    const frame = {
      type: 'fetch.data',
      requestId: 1,
      simId: 7,
      outputs: [0, 5],
      requests: [
        { objIds: [1, 2], attributes: ['pressure'], geometry: true, dataset: 'fast', masks: [] },
      ],
      bundle: true,
    }
    expect(parseResultsClientFrame(JSON.stringify(frame))).toEqual(frame)
  })

  it('parses stats.calc with single-item operation lists on the raw dataset', () => {
    const frame = {
      type: 'stats.calc',
      requestId: 2,
      simId: 7,
      outputs: [1, 2],
      attribute: 'pressure',
      dataset: 'raw',
      objIds: [1],
      masks: [],
      operations: { mean: ['mean'], max: ['max'] },
      mode: 'both',
    }
    expect(parseResultsClientFrame(JSON.stringify(frame))).toEqual({ ...frame, subAttribute: null })
    const twoItems = { ...frame, operations: { mean: ['mean', 'max'] } }
    expect(() => parseResultsClientFrame(JSON.stringify(twoItems))).toThrow()
    expect(() => parseResultsClientFrame(JSON.stringify({ ...frame, dataset: 'full' }))).toThrow()
    expect(() => parseResultsClientFrame(JSON.stringify({ ...frame, mode: 'all' }))).toThrow()
  })

  it('parses the other commands and refuses unknown ones', () => {
    for (const frame of [
      { type: 'fetch.available_outputs', requestId: 1, simId: 3 },
      { type: 'fetch.info', requestId: 1, simId: 3, outputs: [0] },
      { type: 'sys.sync', requestId: 1, simId: 3 },
      { type: 'stats.info', requestId: 1, simId: 3 },
      { type: 'cancel', requestId: 2, targetRequestId: 1 },
    ])
      expect(parseResultsClientFrame(JSON.stringify(frame))).toEqual(frame)
    expect(() => parseResultsClientFrame('{"type":"fetch.everything","requestId":1}')).toThrow()
    expect(() =>
      parseResultsClientFrame('{"type":"fetch.info","requestId":1,"simId":3,"outputs":[-1]}'),
    ).toThrow()
  })
})

describe('server frames', () => {
  it('parses sys.sync.resp with viz and sensor updates', () => {
    const frame = {
      type: 'sys.sync.resp',
      requestId: 3,
      vizUpdates: [{ outputNo: 4, state: 'ready' }],
      sensorUpdates: [{ outputNo: 4, state: 'failed' }],
    }
    expect(parseResultsServerFrame(JSON.stringify(frame))).toEqual(frame)
  })

  it('parses statistics results and errors carrying the output number', () => {
    const frames = [
      {
        type: 'stats.calc.output_statistic',
        requestId: 2,
        outputNo: 1,
        statistic: 'mean',
        value: 3,
      },
      { type: 'stats.calc.all_output_statistic', requestId: 2, statistic: 'mean', value: null },
      { type: 'stats.calc.error', requestId: 2, outputNo: 9, message: 'missing' },
      { type: 'stats.calc.done', requestId: 2, state: 'canceled' },
    ]
    for (const frame of frames)
      expect(parseResultsServerFrame(JSON.stringify(frame))).toEqual(frame)
  })

  it('parses the fetch.info and fetch.data variants', () => {
    const frames = [
      { type: 'fetch.info.missing_output', requestId: 1, outputNo: 3 },
      {
        type: 'fetch.data.transform',
        requestId: 1,
        outputNo: 3,
        objId: 2,
        matrix: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
      },
      { type: 'fetch.data.misc', requestId: 1, outputNo: 3, objId: null, key: 'drag', value: [1] },
      { type: 'fetch.data.missing_attribute', requestId: 1, outputNo: 3, objId: 2, attribute: 'x' },
      { type: 'fetch.data.masking_error', requestId: 1, outputNo: 3, maskId: 4, message: 'bad' },
      { type: 'fetch.data.done', requestId: 1 },
    ]
    for (const frame of frames) expect(v.parse(ResultsServerFrameSchema, frame)).toEqual(frame)
    expect(v.safeParse(ResultsServerFrameSchema, { ...frames[1], matrix: [1, 0, 0] }).success).toBe(
      false,
    )
  })
})

describe('binary frames', () => {
  const header: BinaryServerFrame = {
    type: 'fetch.data.bundle',
    requestId: 5,
    outputNo: 2,
    dataset: 'full',
    objIds: [1],
    byteLength: 12,
  }
  const payload = new Uint8Array(new Float32Array([1.5, -2, 3]).buffer)

  it('round-trips the header and payload', () => {
    const decoded = decodeBinaryFrame(encodeBinaryFrame(header, payload))
    expect(decoded.header).toEqual(header)
    expect(
      Array.from(new Float32Array(decoded.payload.buffer, decoded.payload.byteOffset, 3)),
    ).toEqual([1.5, -2, 3])
  })

  it('starts the payload on an 8-byte boundary and does not copy it on decode', () => {
    const bytes = encodeBinaryFrame(header, payload)
    const decoded = decodeBinaryFrame(bytes.buffer as ArrayBuffer)
    expect(decoded.payload.byteOffset % 8).toBe(0)
    expect(decoded.payload.buffer).toBe(bytes.buffer)
  })

  it('refuses a payload whose length differs from the header', () => {
    expect(() => encodeBinaryFrame({ ...header, byteLength: 8 }, payload)).toThrow(/byteLength/)
    const bytes = encodeBinaryFrame(header, payload)
    expect(() => decodeBinaryFrame(bytes.subarray(0, bytes.length - 1))).toThrow(/Payload/)
  })

  it('refuses truncated messages and headers of frames without payload', () => {
    expect(() => decodeBinaryFrame(new Uint8Array(2))).toThrow(/too short/)
    const fake = new Uint8Array(8)
    new DataView(fake.buffer).setUint32(0, 100, true)
    expect(() => decodeBinaryFrame(fake)).toThrow(/truncated/)
    const json = new TextEncoder().encode(JSON.stringify({ type: 'fetch.data.done', requestId: 1 }))
    const bytes = new Uint8Array(4 + json.length)
    new DataView(bytes.buffer).setUint32(0, json.length, true)
    bytes.set(json, 4)
    expect(() => decodeBinaryFrame(bytes)).toThrow(/no binary payload/)
  })
})
