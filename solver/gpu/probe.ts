/**
 * The adapter probe, run as its own process (server/jobs/solvers.ts spawns it once): finds the
 * GPU as a run would (findGpu: Dawn, an adapter, a device with the backend's limits) and prints
 * one JSON line, `{"gpu": GpuInfo | null, "reason": string | null}`, then exits. A broken driver
 * can at worst end this process, never the server.
 *
 *   npx tsx solver/gpu/probe.ts
 */
import { findGpu, gpuUnavailableReason } from './device.ts'

const gpu = await findGpu()
process.stdout.write(
  `${JSON.stringify({ gpu: gpu?.info ?? null, reason: gpu ? null : gpuUnavailableReason() })}\n`,
  () => process.exit(0),
)
