const decoder = new TextDecoder();

/**
 * An API answer kept in memory, handed back as a `Response` whose body is read straight from its bytes.
 * Made with a body, a `Response` reads it through a web stream: for the snapshot memo's kept answers that,
 * with the `Request` made before it, was about 8 µs of each of a build's 100,000 catalog reads, and most of
 * their garbage (docs/decisions/222-pages-compressed-once.md). Status and headers are the real ones; the body
 * can be read once, as any answer's.
 */
export class KeptAnswer extends Response {
  readonly #bytes: Uint8Array<ArrayBuffer>;
  readonly #init: { status: number; headers: [string, string][] };
  #used = false;

  constructor(bytes: Uint8Array<ArrayBuffer>, init: { status: number; headers: [string, string][] }) {
    super(null, init);
    this.#bytes = bytes;
    this.#init = init;
  }

  /** The bytes, once: a second read fails as it does on any `Response`. */
  #take(): Uint8Array<ArrayBuffer> {
    if (this.#used) throw new TypeError('Body is unusable: Body has already been read');
    this.#used = true;
    return this.#bytes;
  }

  override get bodyUsed(): boolean {
    return this.#used;
  }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> {
    return new Blob([this.#take()]).stream();
  }

  override text(): Promise<string> {
    return Promise.try(() => decoder.decode(this.#take()));
  }

  override json(): Promise<unknown> {
    return this.text().then((text) => JSON.parse(text) as unknown);
  }

  override bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return Promise.try(() => this.#take().slice());
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return this.bytes().then((bytes) => bytes.buffer);
  }

  override blob(): Promise<Blob> {
    return Promise.try(() => new Blob([this.#take()], { type: this.headers.get('content-type') ?? '' }));
  }

  override clone(): KeptAnswer {
    if (this.#used) throw new TypeError('Response.clone: Body has already been consumed.');
    return new KeptAnswer(this.#bytes, this.#init);
  }
}
