import { z } from 'zod';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from 'zod-openapi';
import { errorBody } from '../../lib/contract/answers.ts';
import { OPERATIONS, type Operation } from '../../lib/contract/operations.ts';

const STATUS_WORDS: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  304: 'Not modified: the ETag given still matches',
  400: 'Malformed request: bad JSON, a NUL character in the URL, a missing or invalid signature',
  401: 'The cart token was not issued by this API',
  402: 'The card was declined, or the payment has not succeeded',
  404: 'Record not found',
  409: 'The cart or payment changed meanwhile',
  413: 'The body is over 64 KB (an image upload: over MEDIA_MAX_UPLOAD_MB)',
  415: 'The body is not JSON',
  422: 'Invalid values (errors by field), or the store has restricted access',
  429: 'Too many requests; Retry-After says when to try again',
  502: 'The payment provider did not answer as expected',
  503: 'The database or the rate-limit store is unavailable; try again',
};

/** HTTP statuses are 100–599, which is what zod-openapi's response keys spell out. */
const statusKey = (status: number | string) => String(status) as `${1 | 2 | 3 | 4 | 5}${string}`;

function operationObject(operation: Operation): ZodOpenApiOperationObject {
  const pathNames = [...operation.path.matchAll(/\{([a-z_]+)\}/g)].map((match) => match[1]!);
  const responses: ZodOpenApiOperationObject['responses'] = {};
  for (const [status, schema] of Object.entries(operation.answers)) {
    const description = STATUS_WORDS[Number(status)] ?? status;
    responses[statusKey(status)] =
      schema === null || schema === undefined
        ? { description, ...(operation.produces ? { content: { [operation.produces]: {} } } : {}) }
        : { description, content: { 'application/json': { schema } } };
  }
  for (const status of operation.errors)
    responses[statusKey(status)] = {
      description: STATUS_WORDS[status] ?? String(status),
      content: { 'application/json': { schema: errorBody } },
    };
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    tags: [operation.tag],
    requestParams: {
      ...(pathNames.length ? { path: z.object(Object.fromEntries(pathNames.map((name) => [name, z.string()]))) } : {}),
      ...(operation.query ? { query: operation.query } : {}),
      ...(operation.headers ? { header: operation.headers } : {}),
    },
    ...(operation.body
      ? {
          requestBody: {
            required: !operation.bodyOptional,
            content: { 'application/json': { schema: operation.body } },
          },
        }
      : {}),
    ...(operation.upload
      ? {
          requestBody: {
            required: true,
            content: {
              'multipart/form-data': {
                schema: operation.upload.extend({ file: z.string().meta({ format: 'binary' }) }),
              },
            },
          },
        }
      : {}),
    responses,
  };
}

/**
 * The OpenAPI 3.1 description of the operations this app serves (operations.ts); the development
 * ones only where they are mounted.
 */
export function openApiDocument(options: { development: { testProcessor: boolean; outbox: boolean } }) {
  const paths: ZodOpenApiPathsObject = {};
  for (const operation of OPERATIONS) {
    if (operation.path.startsWith('/test_processor') && !options.development.testProcessor) continue;
    if (operation.path.startsWith('/dev/') && !options.development.outbox) continue;
    (paths[operation.path] ??= {})[operation.method] = operationObject(operation);
  }
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Storefront commerce API',
      version: '1',
      description:
        'Stores, catalog, cart, checkout and orders of the storefront (docs/api.md has worked examples). ' +
        'Money is a decimal string with two decimals; errors answer `{ message, errors? }`.',
    },
    servers: [{ url: '/api' }],
    paths,
  });
}
