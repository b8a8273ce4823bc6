/**
 * An S3-compatible stand-in for the tests (docs/decisions/205-s3-media-storage.md): the four object calls the
 * media storage makes (PUT, HEAD, GET, DELETE) and the two the builds bucket prunes with (ListObjectsV2 in
 * pages, DeleteObjects), path-style, in memory, on a local port. It checks that a call
 * is signed with the expected access key, so a test cannot pass with the credentials left out; it does not
 * check the signature itself (the AWS SDK makes it).
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeObject = {
  body: Buffer;
  type: string;
  etag: string;
  modified: Date;
  /** As sent with the PUT (builds: docs/decisions/212-builds-as-static-artifacts.md). */
  cacheControl?: string;
  encoding?: string;
};

export type FakeS3 = {
  endpoint: string;
  /** Objects by `{bucket}/{key}`. */
  objects: Map<string, FakeObject>;
  /** While true, every PUT is refused (403), as a bucket whose write permission was taken away. */
  refusePuts: boolean;
  /** Holds every object GET from now until the answer is called (a slow bucket); `heldGets` counts those waiting. */
  holdGets(): () => void;
  heldGets: number;
  close(): Promise<void>;
};

const readBody = async (req: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

/** `aws-chunked` content (a streamed upload): `{hex size};chunk-signature=…\r\n{data}\r\n`… until size 0. */
function decodeAwsChunked(raw: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = raw.indexOf('\r\n', at);
    const size = Number.parseInt(raw.subarray(at, lineEnd).toString('latin1').split(';')[0]!, 16);
    if (!size) return Buffer.concat(parts);
    parts.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

const xmlError = (code: string) => `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code></Error>`;

const xmlText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const unXml = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

/** Keys listed per page: small, so that a test's build of a few dozen files needs several pages. */
const LIST_PAGE = 25;

/** ListObjectsV2 of `bucket`: keys after the continuation token, those past `delimiter` folded into prefixes. */
function listAnswer(objects: Map<string, FakeObject>, bucket: string, query: URLSearchParams): string {
  const prefix = query.get('prefix') ?? '';
  const delimiter = query.get('delimiter') ?? '';
  const after = query.get('continuation-token') ?? '';
  const entries = new Map<string, 'key' | 'prefix'>();
  for (const full of [...objects.keys()].sort()) {
    if (!full.startsWith(`${bucket}/${prefix}`)) continue;
    const key = full.slice(bucket.length + 1);
    const cut = delimiter ? key.indexOf(delimiter, prefix.length) : -1;
    entries.set(cut === -1 ? key : key.slice(0, cut + delimiter.length), cut === -1 ? 'key' : 'prefix');
  }
  const page = [...entries].filter(([name]) => name > after).slice(0, LIST_PAGE + 1);
  const truncated = page.length > LIST_PAGE;
  const shown = page.slice(0, LIST_PAGE);
  const body = shown
    .map(([name, kind]) =>
      kind === 'key'
        ? `<Contents><Key>${xmlText(name)}</Key><Size>${objects.get(`${bucket}/${name}`)!.body.length}</Size></Contents>`
        : `<CommonPrefixes><Prefix>${xmlText(name)}</Prefix></CommonPrefixes>`,
    )
    .join('');
  const next = truncated ? `<NextContinuationToken>${xmlText(shown.at(-1)![0])}</NextContinuationToken>` : '';
  return `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>${bucket}</Name><Prefix>${xmlText(prefix)}</Prefix><KeyCount>${shown.length}</KeyCount><MaxKeys>${LIST_PAGE}</MaxKeys><IsTruncated>${truncated}</IsTruncated>${next}${body}</ListBucketResult>`;
}

export async function startFakeS3(accessKeyId: string): Promise<FakeS3> {
  const objects = new Map<string, FakeObject>();
  let hold: Promise<void> | null = null;
  const server: Server = createServer((req, res) => {
    void (async () => {
      const key = decodeURIComponent(new URL(req.url ?? '/', 'http://s3.local').pathname.slice(1));
      if (!(req.headers.authorization ?? '').includes(`Credential=${accessKeyId}/`)) {
        res.writeHead(403, { 'content-type': 'application/xml' });
        res.end(req.method === 'HEAD' ? undefined : xmlError('InvalidAccessKeyId'));
        return;
      }
      const query = new URL(req.url ?? '/', 'http://s3.local').searchParams;
      // A call on the bucket itself: `/{bucket}` or `/{bucket}/`.
      const bucket = key.replace(/\/+$/, '');
      if (req.method === 'GET' && query.get('list-type') === '2') {
        res.writeHead(200, { 'content-type': 'application/xml' });
        res.end(listAnswer(objects, bucket, query));
        return;
      }
      if (req.method === 'POST' && query.has('delete')) {
        const names = [...(await readBody(req)).toString('utf8').matchAll(/<Key>([^<]*)<\/Key>/g)];
        for (const [, name] of names) objects.delete(`${bucket}/${unXml(name!)}`);
        res.writeHead(200, { 'content-type': 'application/xml' });
        res.end('<?xml version="1.0" encoding="UTF-8"?><DeleteResult></DeleteResult>');
        return;
      }
      const found = objects.get(key);
      const missing = () => {
        res.writeHead(404, { 'content-type': 'application/xml' });
        res.end(req.method === 'HEAD' ? undefined : xmlError('NoSuchKey'));
      };
      switch (req.method) {
        case 'PUT': {
          const raw = await readBody(req);
          if (fake.refusePuts) {
            res.writeHead(403, { 'content-type': 'application/xml' });
            res.end(xmlError('AccessDenied'));
            return;
          }
          const encoding = (req.headers['content-encoding'] ?? '')
            .split(',')
            .map((part) => part.trim())
            .filter((part) => part && part !== 'aws-chunked')
            .join(', ');
          const body = (req.headers['content-encoding'] ?? '').includes('aws-chunked') ? decodeAwsChunked(raw) : raw;
          const etag = `"${createHash('md5').update(body).digest('hex')}"`;
          objects.set(key, {
            body,
            type: req.headers['content-type'] ?? 'application/octet-stream',
            etag,
            modified: new Date(),
            ...(req.headers['cache-control'] ? { cacheControl: req.headers['cache-control'] } : {}),
            ...(encoding ? { encoding } : {}),
          });
          res.writeHead(200, { etag });
          res.end();
          return;
        }
        case 'HEAD':
        case 'GET': {
          if (req.method === 'GET' && hold) {
            fake.heldGets += 1;
            await hold;
            fake.heldGets -= 1;
          }
          if (!found) {
            missing();
            return;
          }
          if (req.headers['if-match'] && req.headers['if-match'] !== found.etag) {
            res.writeHead(412, { 'content-type': 'application/xml' });
            res.end(xmlError('PreconditionFailed'));
            return;
          }
          res.writeHead(200, {
            'content-type': found.type,
            'content-length': String(found.body.length),
            etag: found.etag,
            'last-modified': found.modified.toUTCString(),
          });
          res.end(req.method === 'GET' ? found.body : undefined);
          return;
        }
        case 'DELETE':
          objects.delete(key);
          res.writeHead(204);
          res.end();
          return;
        default:
          res.writeHead(405);
          res.end();
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const fake: FakeS3 = {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    objects,
    refusePuts: false,
    holdGets() {
      let release = () => {};
      hold = new Promise<void>((resolve) => (release = resolve));
      return () => {
        hold = null;
        release();
      };
    },
    heldGets: 0,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return fake;
}
