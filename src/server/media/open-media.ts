/** The media storage the configuration names: an S3-compatible bucket when S3_BUCKET is set, else MEDIA_DIR. */
import path from 'node:path';
import type { Config } from '../config.ts';
import { MediaFolder } from './media-folder.ts';
import type { MediaStorage } from './media-storage.ts';
import { S3Media } from './s3-media.ts';

type MediaConfig = Pick<
  Config,
  | 'MEDIA_DIR'
  | 'S3_BUCKET'
  | 'S3_REGION'
  | 'S3_ENDPOINT'
  | 'S3_ACCESS_KEY_ID'
  | 'S3_SECRET_ACCESS_KEY'
  | 'S3_FORCE_PATH_STYLE'
  | 'S3_PREFIX'
>;

/** The S3-compatible service both buckets are reached on (media, and builds: ADR 212). */
export function s3Connection(config: Omit<MediaConfig, 'MEDIA_DIR' | 'S3_BUCKET' | 'S3_PREFIX'>) {
  return {
    region: config.S3_REGION,
    endpoint: config.S3_ENDPOINT,
    accessKeyId: config.S3_ACCESS_KEY_ID,
    secretAccessKey: config.S3_SECRET_ACCESS_KEY,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
  };
}

/** One per process part (the API, the front): both see the same files, wherever they are. */
export function openMediaStorage(config: MediaConfig): MediaStorage {
  const folder = new MediaFolder(path.resolve(config.MEDIA_DIR));
  if (!config.S3_BUCKET) return folder;
  // The folder stays behind the bucket: the catalog's shipped media (media/vip/) are never uploaded.
  return new S3Media(
    { bucket: config.S3_BUCKET, prefix: config.S3_PREFIX, ...s3Connection(config) },
    folder,
  );
}
