/* Pieces shared by the hand-written OpenAPI operations (binaryOperations.ts, vmOperations.ts). */

const ERROR_BODY = { $ref: '#/components/schemas/ApiErrorBody' }

/** An error reply: the ApiErrorBody, with what gives it. */
export const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: ERROR_BODY } },
})

/** `{id}` of the path: a positive whole number. */
export const idParameter = {
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'integer', minimum: 1 },
}

/** A multipart body of one file (field `file`). */
export const fileUploadBody = (description: string) => ({
  required: true,
  content: {
    'multipart/form-data': {
      schema: {
        type: 'object',
        required: ['file'],
        properties: { file: { type: 'string', format: 'binary', description } },
      },
    },
  },
})
