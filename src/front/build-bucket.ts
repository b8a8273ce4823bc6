/**
 * Builds in an S3-compatible bucket (docs/decisions/212-builds-as-static-artifacts.md): Publish uploads a
 * build's every file, `{S3_BUILDS_PREFIX}{id}/{path}`, with the type, encoding and Cache-Control its
 * manifest gives, before the build may go live, so a CDN in front of the bucket serves it; an instance with
 * its own BUILDS_DIR fetches the live build from there, checked against its manifest, before serving it.
 * The manifest is uploaded last: a build whose manifest is in the bucket is whole there.
 */
import { createHash } from 'node:crypto';
import { link, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { eachAtMost } from '../lib/each-at-most.ts';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import type { Config } from '../server/config.ts';
import { isBuildId } from '../server/publishing/publishing.ts';
import { s3Connection } from '../server/media/open-media.ts';
import { isMissing, s3Client } from '../server/media/s3-media.ts';
import {
  HEADERS_FILE,
  MANIFEST_FILE,
  manifestObjects,
  readManifest,
  type BuildManifest,
  type ManifestObject,
} from './build-manifest.ts';

/** Objects sent or fetched at once: each is one round trip to the service. */
const CONCURRENCY = 8;
/** Keys one DeleteObjects call may name (the S3 API's limit). */
const DELETE_BATCH = 1000;

type BuildsConfig = Pick<
  Config,
  | 'S3_BUILDS_BUCKET'
  | 'S3_BUILDS_PREFIX'
  | 'S3_REGION'
  | 'S3_ENDPOINT'
  | 'S3_ACCESS_KEY_ID'
  | 'S3_SECRET_ACCESS_KEY'
  | 'S3_FORCE_PATH_STYLE'
>;

/** The builds' bucket the configuration names, or null (builds then stay in BUILDS_DIR, shared by instances). */
export function openBuildBucket(config: BuildsConfig): BuildBucket | null {
  if (!config.S3_BUILDS_BUCKET) return null;
  return new BuildBucket(s3Client(s3Connection(config)), config.S3_BUILDS_BUCKET, config.S3_BUILDS_PREFIX);
}

export class BuildBucket {
  readonly #client: S3Client;
  readonly #bucket: string;
  readonly #prefix: string;

  constructor(client: S3Client, bucket: string, prefix: string) {
    this.#client = client;
    this.#bucket = bucket;
    this.#prefix = prefix;
  }

  #key(id: string, file: string): string {
    return `${this.#prefix}${id}/${file}`;
  }

  async #put(id: string, file: string, body: Buffer, headers: Omit<PutObjectCommand['input'], 'Bucket' | 'Key'>) {
    try {
      await this.#client.send(
        new PutObjectCommand({ Bucket: this.#bucket, Key: this.#key(id, file), Body: body, ...headers }),
      );
    } catch (error) {
      throw new Error(`Could not upload ${this.#key(id, file)} to the builds bucket`, { cause: error });
    }
  }

  /** Uploads build `id` from its folder: every file the manifest lists, `_headers`, then the manifest. */
  async upload(root: string, manifest: BuildManifest): Promise<void> {
    const { id } = manifest;
    await eachAtMost(manifestObjects(manifest), CONCURRENCY, async (object: ManifestObject) => {
      await this.#put(id, object.path, await readFile(path.join(root, object.path)), {
        ContentType: object.file.type,
        CacheControl: object.file.cacheControl,
        ...(object.encoding ? { ContentEncoding: object.encoding } : {}),
      });
    });
    await this.#put(id, HEADERS_FILE, await readFile(path.join(root, HEADERS_FILE)), {
      ContentType: 'text/plain; charset=utf-8',
      CacheControl: 'no-store',
    });
    await this.#put(id, MANIFEST_FILE, await readFile(path.join(root, MANIFEST_FILE)), {
      ContentType: 'application/json; charset=utf-8',
      CacheControl: 'no-store',
    });
  }

  /** Whether build `id` is whole in the bucket (its manifest, uploaded last, is there). */
  async has(id: string): Promise<boolean> {
    try {
      await this.#client.send(new HeadObjectCommand({ Bucket: this.#bucket, Key: this.#key(id, MANIFEST_FILE) }));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw new Error(`Could not ask the builds bucket for build ${id}`, { cause: error });
    }
  }

  async #get(id: string, file: string): Promise<Buffer> {
    try {
      const object = await this.#client.send(new GetObjectCommand({ Bucket: this.#bucket, Key: this.#key(id, file) }));
      return Buffer.from(await object.Body!.transformToByteArray());
    } catch (error) {
      throw new Error(`Could not fetch ${this.#key(id, file)} from the builds bucket`, { cause: error });
    }
  }

  /**
   * Fetches build `id` into `{buildsDir}/{id}`: into a hidden folder first, each file checked against the
   * manifest's size and SHA-256 (a file the live build has with the same digest is hard-linked from it),
   * then renamed into place whole, so nothing ever serves part of it.
   */
  async fetch(id: string, buildsDir: string, liveId: string | null): Promise<void> {
    const target = path.join(buildsDir, id);
    const temporary = path.join(buildsDir, `.fetch-${id}-${process.pid}-${Date.now()}`);
    const manifestBody = await this.#get(id, MANIFEST_FILE);
    const manifest = JSON.parse(manifestBody.toString('utf8')) as BuildManifest;
    if (manifest.id !== id) throw new Error(`The builds bucket's manifest of ${id} names build ${manifest.id}`);
    const liveRoot = liveId ? path.join(buildsDir, liveId) : null;
    const live = new Map(
      (liveRoot ? manifestObjects((await readManifest(liveRoot)) ?? { id: '', files: [] }) : []).map((object) => [
        object.path,
        object.digest.sha256,
      ]),
    );
    try {
      await eachAtMost(manifestObjects(manifest), CONCURRENCY, async (object) => {
        const file = path.join(temporary, object.path);
        if (!file.startsWith(temporary + path.sep)) throw new Error(`Build ${id} names a file outside it`);
        await mkdir(path.dirname(file), { recursive: true });
        if (liveRoot && live.get(object.path) === object.digest.sha256) {
          const linked = await link(path.join(liveRoot, object.path), file).then(
            () => true,
            () => false,
          );
          if (linked && (await stat(file)).size === object.digest.size) return;
          await rm(file, { force: true });
        }
        const body = await this.#get(id, object.path);
        const sha256 = createHash('sha256').update(body).digest('hex');
        if (body.length !== object.digest.size || sha256 !== object.digest.sha256)
          throw new Error(`${this.#key(id, object.path)} in the builds bucket does not match its manifest`);
        await writeFile(file, body);
      });
      await writeFile(path.join(temporary, HEADERS_FILE), await this.#get(id, HEADERS_FILE));
      await writeFile(path.join(temporary, MANIFEST_FILE), manifestBody);
      await rename(temporary, target).catch(async (error: unknown) => {
        // Another fetch of the same build finished first: its folder is the same build.
        if (!(await stat(path.join(target, MANIFEST_FILE)).catch(() => null))) throw error;
      });
    } finally {
      await rm(temporary, { recursive: true, force: true });
    }
  }

  /**
   * Deletes from the bucket every build but `keep`, as BUILDS_DIR prunes them (ADR 208): its manifest first,
   * so no instance takes a build for whole while its files go, then the rest. Only names shaped like build ids
   * under the prefix are builds: anything else the bucket holds there stays.
   */
  async prune(keep: ReadonlySet<string>): Promise<void> {
    const { prefixes } = await this.#list(this.#prefix, '/');
    const ids = prefixes.map((prefix) => prefix.slice(this.#prefix.length, -1));
    for (const id of ids.filter((name) => isBuildId(name) && !keep.has(name))) {
      await this.#delete([this.#key(id, MANIFEST_FILE)]);
      await this.#delete((await this.#list(`${this.#prefix}${id}/`)).keys);
    }
  }

  /** The keys under `prefix` (and the sub-prefixes up to `delimiter`, when given), every page of them. */
  async #list(prefix: string, delimiter?: string): Promise<{ keys: string[]; prefixes: string[] }> {
    const keys: string[] = [];
    const prefixes: string[] = [];
    let token: string | undefined;
    try {
      do {
        const page = await this.#client.send(
          new ListObjectsV2Command({
            Bucket: this.#bucket,
            Prefix: prefix,
            ...(delimiter ? { Delimiter: delimiter } : {}),
            ...(token ? { ContinuationToken: token } : {}),
          }),
        );
        for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
        for (const common of page.CommonPrefixes ?? []) if (common.Prefix) prefixes.push(common.Prefix);
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    } catch (error) {
      throw new Error(`Could not list ${prefix} in the builds bucket`, { cause: error });
    }
    return { keys, prefixes };
  }

  async #delete(keys: string[]): Promise<void> {
    for (let start = 0; start < keys.length; start += DELETE_BATCH) {
      const batch = keys.slice(start, start + DELETE_BATCH);
      const answer = await this.#client
        .send(
          new DeleteObjectsCommand({
            Bucket: this.#bucket,
            Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
          }),
        )
        .catch((error: unknown) => {
          throw new Error(`Could not delete ${batch[0]} and others from the builds bucket`, { cause: error });
        });
      const failed = answer.Errors?.[0];
      if (failed) throw new Error(`Could not delete ${failed.Key} from the builds bucket: ${failed.Code}`);
    }
  }

  /** Closes the client's connections. */
  close(): void {
    this.#client.destroy();
  }
}
