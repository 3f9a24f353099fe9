import {
  ORGANIZATION_STORAGE_DOWNLOAD_PATH,
  ORGANIZATION_STORAGE_MESSAGES,
  ORGANIZATION_STORAGE_UPLOAD_PATH,
} from '../../domain/rest/organizationStorageRoutes.ts'
import { API_PREFIX } from '../../domain/rest.ts'
import { VM_SOCKET_PATH, VM_STORAGE_PATH, VM_TICKET_PATH } from '../../domain/rest/vmRoutes.ts'
import { errorResponse, fileUploadBody, idParameter } from './operationParts.ts'

/*
 * OpenAPI operations of the remote VMs' and the organization storage's binary calls (issue 20,
 * registered beside ROUTES by server/vms/): the VM websocket's ticket, one file into a VM's
 * storage, one file into or out of the organization storage. The VM's SFTP endpoint is no HTTP
 * call: it is the sftpUrl of the VM's record (GET /remote_vms), its password the VM's.
 */

const uploaded = (where: string) => ({
  description: `Stored in ${where}: its name and size`,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['name', 'sizeBytes'],
        properties: { name: { type: 'string' }, sizeBytes: { type: 'number' } },
      },
    },
  },
})

/** Operations by path (under /api, `{param}` syntax) and lower-case method. */
export const VM_BINARY_OPERATIONS: Record<string, Record<string, object>> = {
  [`${API_PREFIX}${VM_TICKET_PATH}`]: {
    post: {
      operationId: 'issueRemoteVmTicket',
      summary: `A short-lived, single-use ticket that opens the VM's desktop websocket (${VM_SOCKET_PATH}?ticket=…) for this session, so the access token stays out of the URL; it never outlives the access token`,
      parameters: [idParameter],
      responses: {
        201: {
          description: 'The ticket, and how many seconds it may wait to be used',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['ticket', 'expiresInS'],
                properties: { ticket: { type: 'string' }, expiresInS: { type: 'number' } },
              },
            },
          },
        },
        400: errorResponse('validation_error: id not a positive integer'),
        401: errorResponse('unauthorized'),
        404: errorResponse("resource_not_found: no such VM, or another organization's"),
        409: errorResponse('conflict: the VM is not running'),
      },
    },
  },
  [`${API_PREFIX}${VM_STORAGE_PATH}`]: {
    post: {
      operationId: 'uploadRemoteVmFile',
      summary: "Upload one file into a launching or running VM's storage (multipart field file)",
      parameters: [idParameter],
      requestBody: fileUploadBody('Any file; it counts toward the organization storage'),
      responses: {
        201: uploaded("the VM's storage"),
        400: errorResponse('wrong_input: no file; validation_error: id not a positive integer'),
        401: errorResponse('unauthorized'),
        404: errorResponse("resource_not_found: no such VM, or another organization's"),
        409: errorResponse('conflict: the VM is not running'),
        413: errorResponse(
          "payload_too_large: above the upload limit; storage_full: above the organization's storage",
        ),
      },
    },
  },
  [`${API_PREFIX}${ORGANIZATION_STORAGE_UPLOAD_PATH}`]: {
    post: {
      operationId: 'uploadOrganizationStorageFile',
      summary:
        'Upload one file into the organization storage (every VM of the organization sees it at /organization); a file of the same name is replaced whole',
      requestBody: fileUploadBody(
        'Its name must not be empty, start with a dot or hold a folder part',
      ),
      responses: {
        201: uploaded('the organization storage'),
        400: errorResponse(
          `wrong_input: '${ORGANIZATION_STORAGE_MESSAGES.oneFile}'; validation_error: '${ORGANIZATION_STORAGE_MESSAGES.badName}'`,
        ),
        401: errorResponse('unauthorized'),
        413: errorResponse(
          `payload_too_large: '${ORGANIZATION_STORAGE_MESSAGES.tooLarge}'; storage_full: above the organization's storage`,
        ),
      },
    },
  },
  [`${API_PREFIX}${ORGANIZATION_STORAGE_DOWNLOAD_PATH}`]: {
    get: {
      operationId: 'downloadOrganizationStorageFile',
      summary: 'One file of the organization storage, as an attachment',
      parameters: [
        {
          name: 'name',
          in: 'query',
          required: true,
          description: "The file's path below the storage, as the listing gives it ('a/b.csv')",
          schema: { type: 'string' },
        },
      ],
      responses: {
        200: {
          description: 'The file',
          content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
        },
        400: errorResponse('validation_error: name is required'),
        401: errorResponse('unauthorized'),
        404: errorResponse('resource_not_found: no such file in your organization storage'),
      },
    },
  },
}
