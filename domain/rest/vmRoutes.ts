/**
 * Remote VM calls of spec/account.md §7: the organization's VMs (GET /remote_vms) and one
 * simulation's VM (POST launch, GET read, PUT shutdownTime, DELETE shut down or delete). The VM's
 * desktop is streamed over the websocket VM_SOCKET_PATH and its storage takes uploads at
 * VM_STORAGE_PATH (both registered beside ROUTES by server/vms/).
 */
import * as v from 'valibot'
import { VirtualMachineSchema } from '../accountVm.ts'
import { IdParamSchema } from '../projects.ts'
import type { RouteDef } from '../rest.ts'

/** The websocket that carries one VM's VNC stream (`{id}`: the VM's id; ?ticket= from VM_TICKET_PATH). */
export const VM_SOCKET_PATH = '/ws/vms/{id}'
/** POST: a short-lived, single-use ticket that opens the VM's websocket: `{ ticket, expiresInS }`. */
export const VM_TICKET_PATH = '/remote_vms/{id}/ticket'
/** POST: one file (multipart field `file`) into the VM's storage; GET: the files there. */
export const VM_STORAGE_PATH = '/remote_vms/{id}/storage'

/** PUT /simulations/{id}/remote_vms: auto shutdown on (a time) or off (null). */
export const VmUpdateSchema = v.object({ shutdownTime: v.nullable(v.string()) })

/** One file in a VM's storage. */
export const VmStorageFileSchema = v.object({ name: v.string(), sizeBytes: v.number() })
/** A file in a VM's storage. */
export type VmStorageFile = v.InferOutput<typeof VmStorageFileSchema>

/** Remote VM calls. */
export const VM_ROUTES = {
  listRemoteVms: {
    method: 'GET',
    path: '/remote_vms',
    summary: "The organization's VMs the user can see (newest first)",
    auth: true,
    status: 200,
    response: v.array(VirtualMachineSchema),
  },
  launchRemoteVm: {
    method: 'POST',
    path: '/simulations/{id}/remote_vms',
    summary: 'Launch a VM on the simulation (refused without VM hours left)',
    auth: true,
    status: 201,
    params: IdParamSchema,
    response: VirtualMachineSchema,
  },
  getRemoteVm: {
    method: 'GET',
    path: '/simulations/{id}/remote_vms',
    summary: "The simulation's VM (404 when it has none)",
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: VirtualMachineSchema,
  },
  updateRemoteVm: {
    method: 'PUT',
    path: '/simulations/{id}/remote_vms',
    summary: 'Turn auto shutdown on (shutdownTime) or off (null)',
    auth: true,
    status: 200,
    params: IdParamSchema,
    body: VmUpdateSchema,
    response: VirtualMachineSchema,
  },
  deleteRemoteVm: {
    method: 'DELETE',
    path: '/simulations/{id}/remote_vms',
    summary: 'Shut a launching or running VM down; delete a stopped or failed one',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: VirtualMachineSchema,
  },
  listVmStorage: {
    method: 'GET',
    path: VM_STORAGE_PATH,
    summary: "The files in a VM's storage",
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: v.array(VmStorageFileSchema),
  },
} as const satisfies Record<string, RouteDef>
