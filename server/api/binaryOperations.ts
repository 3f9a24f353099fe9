/*
 * OpenAPI operations of the calls that are not JSON-in/JSON-out (file downloads, multipart
 * uploads, binary bundles) and so are registered outside ROUTES. Each area adds its own here so
 * /api/openapi.json describes every call the server answers.
 */

import { errorResponse, fileUploadBody, idParameter } from './operationParts.ts'
import { VM_BINARY_OPERATIONS } from './vmOperations.ts'

/** `?v=` of a setup download URL: the content hash, so a changed file is a new URL. */
const versionParameter = (of: string) => ({
  name: 'v',
  in: 'query',
  required: false,
  description: `Hash of ${of} as the JSON's URL carries it (ignored by the server; for caching by URL)`,
  schema: { type: 'string' },
})

/** Replies of the setup's binary downloads (ETag = content hash; Cache-Control private, no-cache). */
const setupFileResponses = (what: string, notFound: string) => ({
  200: {
    description: `${what}; ETag is the content hash`,
    content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
  },
  304: { description: 'Not modified (If-None-Match matches the ETag)' },
  400: errorResponse('validation_error: id not a positive integer'),
  401: errorResponse('unauthorized'),
  404: errorResponse(`resource_not_found: out of reach, or ${notFound}`),
})

/** Operations by path (under /api, `{param}` syntax) and lower-case method. */
export const BINARY_OPERATIONS: Record<string, Record<string, object>> = {
  ...VM_BINARY_OPERATIONS,
  '/api/simulations/{id}/download': {
    get: {
      operationId: 'downloadSimulation',
      summary:
        'Download a started simulation as a ZIP (job file, record, outputs, log), or with filename its completed compressed archive (.tar.gz, POST /simulations/{id}/compression)',
      parameters: [
        idParameter,
        {
          name: 'filename',
          in: 'query',
          required: false,
          description:
            'The file name of the completed compression (GET /simulations/{id}/compression)',
          schema: { type: 'string' },
        },
      ],
      responses: {
        200: {
          description: 'ZIP archive, or the gzip-compressed tar archive with filename',
          content: {
            'application/zip': { schema: { type: 'string', format: 'binary' } },
            'application/gzip': { schema: { type: 'string', format: 'binary' } },
          },
        },
        401: errorResponse('unauthorized'),
        404: errorResponse('resource_not_found (with filename: no completed archive of that name)'),
        409: errorResponse('conflict: not started yet'),
      },
    },
  },
  '/api/client-upload/simulations/{id}': {
    put: {
      operationId: 'uploadPreprocessing',
      summary: 'Upload a preprocessed setup (ZIP) and the name of its job file',
      parameters: [idParameter],
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              required: ['file', 'job_filename'],
              properties: {
                file: { type: 'string', format: 'binary' },
                job_filename: { type: 'string', example: 'jobfile_0.json' },
              },
            },
          },
        },
      },
      responses: {
        200: { description: 'The simulation, with uploadedSetup true' },
        400: errorResponse('wrong_input or body_keys_missing'),
        401: errorResponse('unauthorized'),
        403: errorResponse('forbidden: no upload_preprocessing feature'),
        404: errorResponse('resource_not_found or job_file_not_found'),
        409: errorResponse('conflict: already started'),
        413: errorResponse('payload_too_large'),
      },
    },
  },
  '/api/client-upload/simulations/{id}/assemblies': {
    post: {
      operationId: 'uploadAssembly',
      summary:
        'Upload a CAD (STEP) file to a simulation; its import tree is read in a job (spec/setup.md §7)',
      parameters: [idParameter],
      requestBody: fileUploadBody('.stp or .step'),
      responses: {
        201: {
          description:
            "The Assembly (domain/tessellation.ts) in state 'scheduled' or 'running'; GET /api/assemblies/{id} until 'done' (assemblyMetadata) or 'failed' (tessellationErrors)",
        },
        400: errorResponse(
          'wrong_input: not .stp/.step, empty, not multipart; body_keys_missing: no file',
        ),
        401: errorResponse('unauthorized'),
        403: errorResponse("forbidden: a contributor on another's simulation"),
        404: errorResponse('resource_not_found'),
        409: errorResponse('conflict: the setup is locked or was uploaded'),
        413: errorResponse('payload_too_large: above 1 GiB (STEP_UPLOAD_LIMIT_BYTES)'),
        503: errorResponse('security_risk: the file is not STEP by content'),
      },
    },
  },
  '/api/client-upload/uploads': {
    post: {
      operationId: 'uploadFile',
      summary:
        'Upload an STL (binary or ASCII; unit m, mm or in) or a CSV (checked; with kind, made a datatable)',
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              required: ['file'],
              properties: {
                file: { type: 'string', format: 'binary', description: '.stl or .csv' },
                unit: { type: 'string', enum: ['m', 'mm', 'in'], default: 'm' },
                kind: { type: 'string', description: 'CSV only: a datatable kind' },
                simulationId: {
                  type: 'integer',
                  description: "CSV only: the datatable's simulation",
                },
              },
            },
          },
        },
      },
      responses: {
        201: { description: 'The stored upload (id, kind, fileName, unit, nbrOfTriangles, …)' },
        400: errorResponse('wrong_input (broken STL), validation_error (CSV cells and columns)'),
        401: errorResponse('unauthorized'),
        413: errorResponse('payload_too_large: STL above 256 MiB, CSV above 16 MiB'),
        503: errorResponse('security_risk: the file is not what its name claims'),
      },
    },
  },
  '/api/datatables/{id}/csv': {
    put: {
      operationId: 'replaceDatatableFromCsv',
      summary: 'Replace a datatable with a CSV file (multipart field file)',
      parameters: [idParameter],
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              required: ['file'],
              properties: { file: { type: 'string', format: 'binary' } },
            },
          },
        },
      },
      responses: {
        200: { description: 'The first page of the replaced table' },
        400: errorResponse('validation_error: Validation failed, with every global and cell error'),
        401: errorResponse('unauthorized'),
        404: errorResponse('resource_not_found'),
        409: errorResponse('conflict: setup locked'),
        413: errorResponse('payload_too_large'),
        503: errorResponse('security_risk'),
      },
    },
  },
  '/api/simulations/{id}/runs/{runId}/outputs/{outputNo}/bundle': {
    get: {
      operationId: 'getOutputBundle',
      summary: "One output's object payloads as a DIVB bundle (docs/output-format.md)",
      parameters: [
        idParameter,
        { name: 'runId', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } },
        { name: 'outputNo', in: 'path', required: true, schema: { type: 'integer', minimum: 0 } },
        { name: 'dataset', in: 'query', schema: { type: 'string', enum: ['full', 'fast'] } },
        {
          name: 'objects',
          in: 'query',
          description: 'Comma-separated object ids; absent: every object of the output',
          schema: { type: 'string' },
        },
      ],
      responses: {
        200: {
          description: 'DIVB bundle (immutable; strong ETag)',
          content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
        },
        304: { description: 'Not modified (If-None-Match)' },
        400: errorResponse('wrong_input: unknown dataset'),
        401: errorResponse('unauthorized'),
        404: errorResponse('resource_not_found: no such output or object'),
      },
    },
  },
  '/api/simulations/{id}/user_exports/{fileId}': {
    get: {
      operationId: 'downloadUserExportFile',
      summary: "One file of the simulation's completed user export (VTU, STL, logs CSV, job file)",
      parameters: [
        idParameter,
        { name: 'fileId', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } },
      ],
      responses: {
        200: {
          description: 'The file, as an attachment',
          content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
        },
        400: errorResponse(
          'validation_error: id or fileId not a whole number from 1 to 2147483647',
        ),
        401: errorResponse('unauthorized'),
        404: errorResponse(
          'resource_not_found: no such file, or the export expired or was deleted',
        ),
      },
    },
  },
  '/api/graphs': {
    post: {
      operationId: 'uploadGraph',
      summary: "Upload a graph to a simulation's dashboard: a CSV of x;y rows (optional header)",
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              required: ['file', 'simulationId'],
              properties: {
                file: { type: 'string', format: 'binary' },
                simulationId: { type: 'string', example: '12' },
                name: { type: 'string', example: 'Measured force' },
              },
            },
          },
        },
      },
      responses: {
        201: { description: 'The stored graph: id, simulationId, name, xLabel, yLabel, x, y' },
        400: errorResponse(
          'wrong_input (not two columns of numbers), validation_error or body_keys_missing',
        ),
        401: errorResponse('unauthorized'),
        404: errorResponse('resource_not_found: no such simulation you can see'),
        413: errorResponse('payload_too_large (over 8 MiB)'),
      },
    },
  },
  '/api/client-upload/images': {
    post: {
      operationId: 'uploadImage',
      summary: "Upload an image (PNG or JPEG, e.g. a simulation's post image from Save Image)",
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              required: ['file'],
              properties: {
                file: { type: 'string', format: 'binary' },
                name: { type: 'string', example: 'Dam break output 4.png' },
              },
            },
          },
        },
      },
      responses: {
        201: { description: 'The stored image: id, name, contentType, sizeBytes, createdAt, url' },
        400: errorResponse('wrong_input (not a PNG or JPEG) or body_keys_missing'),
        401: errorResponse('unauthorized'),
        413: errorResponse('payload_too_large'),
      },
    },
  },
  '/api/simulations/{id}/images': {
    get: {
      operationId: 'listSimulationImages',
      summary:
        "The simulation's images (its post image and those uploaded for it), newest first, each with its url",
      parameters: [idParameter],
      responses: {
        200: { description: 'The images: id, name, contentType, sizeBytes, createdAt, url' },
        400: errorResponse('validation_error: id not a positive integer'),
        401: errorResponse('unauthorized'),
        404: errorResponse('resource_not_found: no such simulation you can see'),
      },
    },
  },
  '/api/images/{id}': {
    get: {
      operationId: 'getImage',
      summary: "An image's bytes",
      parameters: [idParameter],
      responses: {
        200: {
          description: 'The image',
          content: {
            'image/png': { schema: { type: 'string', format: 'binary' } },
            'image/jpeg': { schema: { type: 'string', format: 'binary' } },
          },
        },
        401: errorResponse('unauthorized'),
        404: errorResponse('resource_not_found'),
      },
    },
    delete: {
      operationId: 'deleteImage',
      summary: 'Delete an image (a simulation showing it as post image no longer does)',
      parameters: [idParameter],
      responses: {
        204: { description: 'Deleted' },
        401: errorResponse('unauthorized'),
        404: errorResponse('resource_not_found'),
      },
    },
  },
  '/api/parts/{id}/mesh': {
    get: {
      operationId: 'getPartMesh',
      summary:
        "A part's mesh in its own coordinates (metres, before translation, rotation and scale; flipNormals applied to the winding) as DMSH (domain/meshFile.ts). Plane and cube are built; an STL part streams its stored upload",
      parameters: [idParameter, versionParameter('meshHash')],
      responses: setupFileResponses(
        'DMSH mesh',
        'the part has no mesh (empty, pointcloud, no file or no dimensions)',
      ),
    },
  },
  '/api/parts/{id}/pointcloud': {
    get: {
      operationId: 'getPartPointcloud',
      summary:
        "A part's particles from the simulation's latest successful discretization (world metres) as DPCL (domain/pointCloudFile.ts), streamed from disk",
      parameters: [idParameter, versionParameter('the point cloud')],
      responses: setupFileResponses(
        'DPCL point cloud',
        'no successful discretization gave the part particles',
      ),
    },
  },
  '/api/meshes/{id}/mesh': {
    get: {
      operationId: 'getMeshFile',
      summary:
        'A sensor, volume clip or refinement mesh placed in world metres (server/meshes/triangles.ts; flipNormals applied to the winding) as DMSH, three vertices per triangle',
      parameters: [idParameter, versionParameter('the mesh definition')],
      responses: setupFileResponses(
        'DMSH mesh',
        'a point or complex mesh, or a definition without triangles',
      ),
    },
  },
  '/api/simulations/{id}/air_drag_domain/grid': {
    get: {
      operationId: 'getAirDragGrid',
      summary:
        "The air drag domain's grid (its box's lower corner, cell size, cells per axis, kind and the air's velocity at the start) as DAGR (domain/airDragGridFile.ts)",
      parameters: [idParameter, versionParameter('the grid')],
      responses: setupFileResponses(
        'DAGR grid',
        'the simulation has no air drag domain with cells',
      ),
    },
  },
}
