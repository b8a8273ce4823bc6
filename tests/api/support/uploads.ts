/** Console uploads for API tests: pictures made on the spot, sent as multipart forms as the console's pages send them. */
import sharp from 'sharp';
import { contractProblem } from './contract-check.ts';
import { siteOrigin, type Operator } from './operator.ts';
import type { ApiAnswer, TestApp } from './test-app.ts';

/** A plain picture of the given type and size. */
export const picture = (format: 'png' | 'jpeg' | 'webp' | 'avif', width = 240, height = 180) =>
  sharp({ create: { width, height, channels: 3, background: '#3a6' } })
    [format]()
    .toBuffer();

/** A file as a browser's form holds it. */
export type UploadedFile = { bytes: Uint8Array<ArrayBuffer> | string; name: string; type: string };

/** A multipart upload as the console's page sends it; the answer is checked against the contract. */
export async function uploadFile(
  api: TestApp,
  who: Operator,
  apiPath: string,
  file: UploadedFile,
  alt?: string,
  options: { contract?: boolean } = {},
): Promise<ApiAnswer> {
  const form = new FormData();
  form.append('file', new Blob([file.bytes], { type: file.type }), file.name);
  if (alt !== undefined) form.append('alt', alt);
  const response = await fetch(`${api.baseUrl}${apiPath}`, {
    method: 'POST',
    headers: { cookie: who.cookie, origin: siteOrigin(api), 'x-csrf-token': who.csrf },
    body: form,
  });
  const text = await response.text();
  const problem = options.contract === false ? null : contractProblem('POST', apiPath, response.status, text);
  if (problem) throw new Error(problem);
  return { status: response.status, body: text ? JSON.parse(text) : undefined, text, headers: response.headers };
}
