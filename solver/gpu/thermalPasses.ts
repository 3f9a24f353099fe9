/**
 * The bound passes of heat conduction and the viscosity models (heatShaders.ts) for a run's
 * buffers; passes.ts dispatches them.
 */
import type { GpuBuffers } from './buffers.ts'
import type { BindPass, Pass } from './pipelines.ts'
import { thermalPipelinesFor } from './pipelines.ts'
import type { GpuThermal } from './thermal.ts'
import { VISCOSITY_MODEL } from '../sph/viscosityModels.ts'

/** The passes of heat conduction and the viscosity models; null where off. */
export interface ThermalPasses {
  /** The force pass with each fluid particle's ν (a viscosity table), or null. */
  forceVariableNu: GPUComputePipeline | null
  /** The therm buffer through the sort (into `start`, copied back). */
  scatter: Pass
  viscosity: Pass | null
  heatWall: Pass | null
  heat: Pass | null
  update: Pass | null
}

/** A run without the therm buffer. */
export const THERMAL_OFF: GpuThermal = {
  on: false,
  conduction: false,
  model: VISCOSITY_MODEL.constant,
  variableNu: false,
  tableRows: 0,
  table: new Float32Array(2),
  referenceT: 0,
}

/** The thermal passes on buffers `b` (the table written), or null where the run has none. */
export function thermalPasses(
  device: GPUDevice,
  b: GpuBuffers,
  thermal: GpuThermal,
  pass: BindPass,
): ThermalPasses | null {
  if (!thermal.on) return null
  const t = thermalPipelinesFor(device)
  if (thermal.tableRows > 0) device.queue.writeBuffer(b.table, 0, thermal.table)
  const conduction = thermal.conduction
  const model = thermal.model
  return {
    forceVariableNu: thermal.variableNu ? t.forceVariableNu : null,
    scatter: pass(t.scatter, [b.params, b.therm, b.info, b.rank, b.cellStart, b.start]),
    viscosity:
      model === VISCOSITY_MODEL.shearRate
        ? pass(t.viscosityShearRate, [
            b.params,
            b.rec0,
            b.rec1,
            b.wall,
            b.info,
            b.cellStart,
            b.therm,
            b.table,
          ])
        : model === VISCOSITY_MODEL.temperature
          ? pass(t.viscosityTemperature, [b.params, b.info, b.therm, b.table, b.wall])
          : null,
    heatWall: conduction
      ? pass(t.heatWall, [b.params, b.rec0, b.rec1, b.info, b.cellStart, b.therm])
      : null,
    heat: conduction
      ? pass(t.heat, [b.params, b.rec0, b.rec1, b.info, b.cellStart, b.therm, b.velr])
      : null,
    update: conduction ? pass(t.heatUpdate, [b.params, b.info, b.therm, b.control]) : null,
  }
}
