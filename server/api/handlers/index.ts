import type { RouteHandlers } from '../context.ts'
import {
  currentUser,
  organizations,
  storageConsumption,
  teamUsers,
  updateProfile,
  version,
} from './account.ts'
import { login, logout, refresh } from './auth.ts'
import { assemblyHandlers } from './assemblyHandlers.ts'
import { accountHandlers } from '../../account/handlers.ts'
import { compressionHandlers } from '../../compression/handlers.ts'
import { dashboardHandlers } from '../../dashboards/handlers.ts'
import { exportHandlers } from './exportHandlers.ts'
import { resultsHandlers } from './resultsHandlers.ts'
import { runHandlers } from './runHandlers.ts'
import { sensorHandlers } from './sensorHandlers.ts'
import { setupHandlers } from './setupHandlers.ts'
import { setupObjectHandlers } from './setupObjectHandlers.ts'
import { viewportHandlers } from './viewportHandlers.ts'
import { vmHandlers } from '../../vms/vmHandlers.ts'
import { organizationStorageHandlers } from '../../vms/organizationStorage.ts'
import {
  createProject,
  deleteProject,
  getProject,
  listProjects,
  updateProject,
} from './projects.ts'
import {
  cloneSimulation,
  createSimulation,
  deleteSimulation,
  getSimulation,
  moveSimulation,
  updateSimulation,
} from './simulations.ts'

/** Every entry of ROUTES has its handler here: a missing one fails to type-check. */
export function createHandlers(openApiDocument: RouteHandlers['openapi']): RouteHandlers {
  return {
    login,
    refresh,
    logout,
    currentUser,
    updateProfile,
    teamUsers,
    organizations,
    storageConsumption,
    openapi: openApiDocument,
    version,
    listProjects,
    createProject,
    getProject,
    updateProject,
    deleteProject,
    createSimulation,
    getSimulation,
    updateSimulation,
    cloneSimulation,
    deleteSimulation,
    moveSimulation,
    ...setupHandlers,
    ...setupObjectHandlers,
    ...runHandlers,
    ...resultsHandlers,
    ...sensorHandlers,
    ...exportHandlers,
    ...compressionHandlers,
    ...viewportHandlers,
    ...assemblyHandlers,
    ...dashboardHandlers,
    ...accountHandlers,
    ...vmHandlers,
    ...organizationStorageHandlers,
  }
}
