/**
 * Where stores' media live (docs/decisions/205-s3-media-storage.md): the media folder (`MEDIA_DIR`, ADR 120)
 * or an S3-compatible bucket. The console's uploads write through this, the front reads through it after the
 * store's access check; neither knows which one it is.
 */

/** A store media file as found: what its answer needs, and its bytes on demand. */
export type StoredMedia = {
  size: number;
  /** Changes whenever the file does: the answer's ETag. */
  version: string;
  type: string;
  /** A local file holding it (the folder): sent as is. Null for an object in a bucket. */
  file: string | null;
  read(): Promise<Uint8Array>;
};

export type StagedMedia = {
  /** Moves the file into place and answers its URL. */
  place(): Promise<string>;
  /** Forgets the staged file. */
  discard(): Promise<void>;
};

export type MediaStorage = {
  /** The file a store's media name stands for, or null when there is none (or the name is not one). */
  find(slug: string, name: string): Promise<StoredMedia | null>;
  /** Writes a store's media file and answers its URL; a reader sees the old file or the new one, never half. */
  write(slug: string, name: string, data: string | Uint8Array): Promise<string>;
  /** Readies a file that nobody can read until `place()`; `discard()` drops it. */
  stage(slug: string, name: string, data: string | Uint8Array): Promise<StagedMedia>;
  /** Deletes a store's media file (nothing when there is none). */
  remove(slug: string, name: string): Promise<void>;
};
