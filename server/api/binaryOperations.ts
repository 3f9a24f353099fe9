/*
 * OpenAPI operations of the calls that are not JSON-in/JSON-out (file downloads, multipart
 * uploads, binary bundles) and so are registered outside ROUTES. Each area adds its own here so
 * /api/openapi.json describes every call the server answers.
 */

const ERROR_BODY = { $ref: '#/components/schemas/ApiErrorBody' }
const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: ERROR_BODY } },
})
const idParameter = {
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'integer', minimum: 1 },
}

/** Operations by path (under /api, `{param}` syntax) and lower-case method. */
export const BINARY_OPERATIONS: Record<string, Record<string, object>> = {
  '/api/simulations/{id}/download': {
    get: {
      operationId: 'downloadSimulation',
      summary: 'Download a started simulation as a ZIP (job file, record, outputs, log)',
      parameters: [idParameter],
      responses: {
        200: {
          description: 'ZIP archive',
          content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } },
        },
        401: errorResponse('unauthorized'),
        404: errorResponse('resource_not_found'),
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
}
