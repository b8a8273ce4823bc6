/**
 * Stores' media in an S3-compatible bucket (docs/decisions/205-s3-media-storage.md): the object
 * `{S3_PREFIX}{slug}/{name}` for the file `/{slug}/media/{name}`. The bucket stays private: the front reads
 * objects with the server's credentials after the store's access check (ADR 120) and answers them itself,
 * so a restricted store's files are never reachable by a bucket URL. Files the bucket does not have are
 * looked up in the media folder, where the catalog's shipped media stay.
 */
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import path from 'node:path';
import { CONTENT_TYPES } from '../../lib/content-types.ts';
import { isSlug } from '../../lib/slug.ts';
import { isMediaName, mediaUrl } from './media-folder.ts';
import type { MediaStorage, StagedMedia, StoredMedia } from './media-storage.ts';

export type S3Settings = {
  bucket: string;
  region: string;
  /** Another S3-compatible service (MinIO, R2, a test stand-in); AWS when absent. */
  endpoint?: string | undefined;
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
  /** `{endpoint}/{bucket}/{key}` instead of `{bucket}.{endpoint}/{key}` (most self-hosted services). */
  forcePathStyle: boolean;
  /** Put before every key, to share a bucket: `media/`. */
  prefix: string;
};

/** A client for the service the settings name (the media bucket's, the builds' — ADR 212). */
export function s3Client(settings: Omit<S3Settings, 'bucket' | 'prefix'>): S3Client {
  return new S3Client({
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    ...(settings.accessKeyId && settings.secretAccessKey
      ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
      : {}),
  });
}

export const isMissing = (error: unknown) =>
  error instanceof S3ServiceException && (error.$metadata.httpStatusCode === 404 || error.name === 'NoSuchKey');

export class S3Media implements MediaStorage {
  readonly #client: S3Client;
  readonly #settings: S3Settings;
  readonly #fallback: MediaStorage | null;

  constructor(settings: S3Settings, fallback: MediaStorage | null = null) {
    this.#settings = settings;
    this.#fallback = fallback;
    this.#client = s3Client(settings);
  }

  #key(slug: string, name: string): string {
    if (!isSlug(slug) || !isMediaName(name)) throw new Error(`Not a store media file: ${JSON.stringify(`${slug}/${name}`)}`);
    return `${this.#settings.prefix}${slug}/${name}`;
  }

  async find(slug: string, name: string): Promise<StoredMedia | null> {
    if (!isSlug(slug) || !isMediaName(name)) return null;
    const Key = this.#key(slug, name);
    const Bucket = this.#settings.bucket;
    try {
      const head = await this.#client.send(new HeadObjectCommand({ Bucket, Key }));
      const version = (head.ETag ?? '').replaceAll('"', '') || String(head.LastModified?.getTime() ?? 0);
      return {
        size: head.ContentLength ?? 0,
        version,
        // The type by the name, as the folder answers it: the name's extension was checked when it was written.
        type: CONTENT_TYPES[path.extname(name).toLowerCase()]!,
        file: null,
        read: async () => {
          const object = await this.#client.send(new GetObjectCommand({ Bucket, Key, IfMatch: head.ETag }));
          return object.Body!.transformToByteArray();
        },
      };
    } catch (error) {
      if (!isMissing(error)) throw new Error(`Could not read ${Key} from the media bucket`, { cause: error });
      return this.#fallback ? this.#fallback.find(slug, name) : null;
    }
  }

  async write(slug: string, name: string, data: string | Uint8Array): Promise<string> {
    return (await this.stage(slug, name, data)).place();
  }

  /**
   * Nothing is sent until `place()`: a PUT replaces an object whole, so readers see the old file or the new
   * one, and an upload whose row is never written leaves nothing in the bucket.
   */
  stage(slug: string, name: string, data: string | Uint8Array): Promise<StagedMedia> {
    const Key = this.#key(slug, name);
    return Promise.resolve({
      place: async () => {
        await this.#client.send(
          new PutObjectCommand({
            Bucket: this.#settings.bucket,
            Key,
            Body: typeof data === 'string' ? Buffer.from(data) : data,
            ContentType: CONTENT_TYPES[path.extname(name).toLowerCase()],
          }),
        );
        return mediaUrl(slug, name);
      },
      discard: () => Promise.resolve(),
    });
  }

  async remove(slug: string, name: string): Promise<void> {
    await this.#client.send(new DeleteObjectCommand({ Bucket: this.#settings.bucket, Key: this.#key(slug, name) }));
  }

  /** Closes the client's connections. */
  close(): void {
    this.#client.destroy();
  }
}
