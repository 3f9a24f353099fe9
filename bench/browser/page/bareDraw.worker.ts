/**
 * A bare three.js draw of every particle of a bundle on an OffscreenCanvas: the floor a first
 * frame is compared with (same points, same software GPU, same run).
 */
import * as THREE from 'three'
import { readBundle, readObjectStream } from '../../../domain/output/reader.ts'
import type { BareDrawRequest, BareDrawResult } from './api.ts'

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<BareDrawRequest>) => void) | null
  postMessage(message: unknown): void
}

async function drawBare(request: BareDrawRequest): Promise<BareDrawResult> {
  const response = await fetch(request.bundleUrl)
  const bundle = new Uint8Array(await response.arrayBuffer())
  const tables = readBundle(bundle)
    .map((entry) => readObjectStream(entry.bytes))
    .filter((view) => view.mask === null)
  const points = tables.reduce((sum, view) => sum + view.rowCount, 0)
  const positions = new Float32Array(points * 3)
  let row = 0
  for (const view of tables) {
    const { x, y, z } = view.columns
    for (let index = 0; index < view.rowCount; index++, row++) {
      positions[row * 3] = x![index]!
      positions[row * 3 + 1] = y![index]!
      positions[row * 3 + 2] = z![index]!
    }
  }
  const canvas = new OffscreenCanvas(request.width, request.height)
  const renderer = new THREE.WebGLRenderer({ canvas, antialias: false })
  renderer.setSize(request.width, request.height, false)
  const scene = new THREE.Scene()
  const camera = new THREE.PerspectiveCamera(45, request.width / request.height, 0.01, 100)
  camera.position.set(2, -6, 3)
  camera.up.set(0, 0, 1)
  camera.lookAt(2, 0.5, 0.5)
  renderer.render(scene, camera)
  const gl = renderer.getContext()
  const pixel = new Uint8Array(4)
  gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel)

  const startMs = performance.now()
  const geometry = new THREE.BufferGeometry()
  geometry.setAttribute('position', new THREE.BufferAttribute(positions, 3))
  const cloud = new THREE.Points(
    geometry,
    new THREE.PointsMaterial({ size: 2, sizeAttenuation: false, color: 0x3366cc }),
  )
  scene.add(cloud)
  renderer.render(scene, camera)
  // A readback waits until the GPU has drawn everything submitted.
  gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel)
  const drawMs = performance.now() - startMs
  geometry.dispose()
  renderer.dispose()
  return { points, drawMs }
}

scope.onmessage = (event) => {
  drawBare(event.data).then(
    (result) => scope.postMessage({ result }),
    (error: unknown) =>
      scope.postMessage({ error: error instanceof Error ? error.message : String(error) }),
  )
}
