import type { Simulation } from '../../domain/projects.ts'
import { defaultSettings } from '../../domain/settings.ts'

/*
 * Fixtures of the UI tests: the server's objects as the API returns them, with every field, so a
 * test states only what it is about.
 */

/** A not-started simulation of the demo project by Mia Manager; `patch` overrides any field. */
export function makeSimulation(patch: Partial<Simulation> = {}): Simulation {
  return {
    id: 4,
    name: 'Dam break',
    description: '',
    state: 'not started',
    uploadedSetup: false,
    activeRunId: null,
    setupLocked: false,
    resumable: false,
    creditsConsumed: 0,
    size: 0,
    creator: { id: 2, fullName: 'Mia Manager', avatarId: 0 },
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    projectId: 2,
    project: { id: 2, name: 'Demo project' },
    lastStopCondition: null,
    simulationHoursConsumed: 0,
    cores: null,
    freeInstance: false,
    gpu: false,
    solver: null,
    startedAt: null,
    remoteVmRunState: null,
    postImageId: null,
    log: null,
    outputTimeInterval: 0.02,
    settings: defaultSettings(),
    ...patch,
  }
}
