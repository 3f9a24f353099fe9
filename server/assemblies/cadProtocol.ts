import type {
  AssemblyReadResult,
  PartTessellationRequest,
  PartTessellationResult,
} from './cadWork.ts'

/** workerData of a CAD thread: the absolute path of the STEP file and what to do with it. */
export type CadWorkerData =
  | { kind: 'read'; path: string }
  | { kind: 'tessellate'; path: string; parts: PartTessellationRequest[] }

/** CAD thread → parent. A part's buffers are transferred, not copied. */
export type CadWorkerMessage =
  | ({ type: 'read' } & AssemblyReadResult)
  | ({ type: 'part' } & PartTessellationResult)
  | { type: 'done' }
  | { type: 'error'; message: string }
