/**
 * A product's images on its console page (docs/decisions/201-console-product-images.md): files dropped
 * on the drop zone or chosen with its button upload at once, several side by side, each with its
 * progress; each image then gets its alt text (flagged while it has none), a place in the gallery
 * (move up or down), the default mark, or is deleted. The server decides what a file is and answers
 * every refusal with a message, shown by the file or the image it is about.
 */
import { useCallback, useEffect, useId, useRef, useState, type DragEvent, type SubmitEvent } from 'react';
import type { ConsoleProductImage } from '../../lib/contract/answers.ts';
import { consoleApi } from '../../lib/api-client/console-api.ts';
import { derivativeUrl, hasDerivatives } from '../../lib/responsive-image.ts';
import { TextField } from '../forms/TextField.tsx';
import { messageOf, NoticeLine, textOf, useConsoleForm, type Notice } from './use-console-form.tsx';

/** What the file picker offers; the server checks the bytes whatever the picker let through. */
const ACCEPT = 'image/jpeg,image/png,image/webp,image/avif';

type Upload = { key: string; name: string; progress: number; error: string | null };

function AltForm({
  slug,
  productId,
  image,
  index,
  onChanged,
}: {
  slug: string;
  productId: string;
  image: ConsoleProductImage;
  index: number;
  onChanged(gallery: ConsoleProductImage[], notice: string): void;
}) {
  const { notice, submit, errorOf } = useConsoleForm();
  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const alt = textOf(new FormData(event.currentTarget), 'alt');
    await submit(
      () => consoleApi.updateImage(slug, productId, image.id, { alt }),
      (answer) => {
        onChanged(answer.data, `Alt text of image ${index + 1} saved.`);
        return null;
      },
    );
  }
  return (
    <form noValidate className="console__image-alt" onSubmit={(event) => void onSubmit(event)}>
      <TextField
        name="alt"
        label={`Alt text of image ${index + 1}`}
        hint="What the picture shows, for shoppers who cannot see it."
        defaultValue={image.alt}
        maxLength={300}
        {...errorOf('alt')}
      />
      <NoticeLine notice={notice} />
      <button type="submit" className="button">
        Save alt text of image {index + 1}
      </button>
    </form>
  );
}

function ImageItem({
  slug,
  productId,
  image,
  index,
  count,
  onChanged,
}: {
  slug: string;
  productId: string;
  image: ConsoleProductImage;
  index: number;
  count: number;
  onChanged(gallery: ConsoleProductImage[], notice: string, focus?: string): void;
}) {
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const n = index + 1;

  async function change(action: () => Promise<{ data: ConsoleProductImage[] }>, done: string, focus?: string) {
    setFailure(null);
    try {
      onChanged((await action()).data, done, focus);
    } catch (error) {
      setFailure(messageOf(error));
    }
  }
  const move = (to: number, focus: string) =>
    change(
      () => consoleApi.updateImage(slug, productId, image.id, { position: to }),
      `Image moved to place ${to + 1}.`,
      focus,
    );

  return (
    <li className="console__panel console__image" aria-label={`Image ${n}`}>
      <img
        className="console__image-thumb"
        src={hasDerivatives(image.url) ? derivativeUrl(image.url, 160, 'webp') : image.url}
        alt=""
        width={96}
        height={96}
        loading="lazy"
      />
      <div className="console__image-body">
        <p>
          <strong>Image {n}</strong>
          {image.default && <span className="console__badge"> Default image</span>}
          {image.width !== null && image.height !== null && (
            <span className="console__hint">
              {' '}
              {image.width} × {image.height} px
            </span>
          )}
        </p>
        {image.alt === '' && (
          <p className="console__flag">
            Alt text missing: until you add it, the store describes this image by the product’s name only.
          </p>
        )}
        <AltForm
          key={image.alt}
          slug={slug}
          productId={productId}
          image={image}
          index={index}
          onChanged={(gallery, notice) => onChanged(gallery, notice)}
        />
        <div className="console__links">
          <button
            type="button"
            className="button"
            id={`image-up-${image.id}`}
            disabled={index === 0}
            onClick={() => void move(index - 1, index - 1 === 0 ? `image-down-${image.id}` : `image-up-${image.id}`)}
          >
            Move image {n} up
          </button>
          <button
            type="button"
            className="button"
            id={`image-down-${image.id}`}
            disabled={index === count - 1}
            onClick={() =>
              void move(index + 1, index + 1 === count - 1 ? `image-up-${image.id}` : `image-down-${image.id}`)
            }
          >
            Move image {n} down
          </button>
          {!image.default && (
            <button
              type="button"
              className="button"
              onClick={() =>
                void change(
                  () => consoleApi.updateImage(slug, productId, image.id, { default: true }),
                  `Image ${n} is now the default image.`,
                )
              }
            >
              Make image {n} the default
            </button>
          )}
          {confirming ? (
            <>
              <button
                type="button"
                className="button"
                onClick={() =>
                  void change(() => consoleApi.deleteImage(slug, productId, image.id), `Image ${n} deleted.`)
                }
              >
                Really delete image {n}
              </button>
              <button type="button" className="button" onClick={() => setConfirming(false)}>
                Keep image {n}
              </button>
            </>
          ) : (
            <button type="button" className="button" onClick={() => setConfirming(true)}>
              Delete image {n}
            </button>
          )}
        </div>
        {failure && (
          <div className="alert alert--error" role="alert">
            {failure}
          </div>
        )}
      </div>
    </li>
  );
}

function DropZone({ onFiles }: { onFiles(files: File[]): void }) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const hintId = useId();
  const take = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setOver(false);
    onFiles([...event.dataTransfer.files]);
  };
  return (
    <div
      className={over ? 'console__dropzone console__dropzone--over' : 'console__dropzone'}
      data-testid="image-drop-zone"
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={take}
    >
      <p id={hintId}>Drop JPEG, PNG, WebP or AVIF images here, several at once, or</p>
      <button type="button" className="button" aria-describedby={hintId} onClick={() => input.current?.click()}>
        Choose images to upload
      </button>
      <input
        ref={input}
        type="file"
        accept={ACCEPT}
        multiple
        hidden
        onChange={(event) => {
          onFiles([...(event.currentTarget.files ?? [])]);
          event.currentTarget.value = '';
        }}
      />
    </div>
  );
}

/** The images section of the product page. */
export function ProductImages({ slug, productId }: { slug: string; productId: string }) {
  const [gallery, setGallery] = useState<ConsoleProductImage[] | null>(null);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [focus, setFocus] = useState<string | null>(null);
  const counter = useRef(0);

  useEffect(() => {
    consoleApi
      .images(slug, productId)
      .then((answer) => setGallery(answer.data))
      .catch((error: unknown) => setNotice({ ok: false, text: messageOf(error) }));
  }, [slug, productId]);
  // A moved image's button keeps the focus (or its other move button, at an end of the gallery).
  useEffect(() => {
    if (focus) document.getElementById(focus)?.focus();
  }, [focus, gallery]);

  const changed = useCallback((next: ConsoleProductImage[], text: string, focusId?: string) => {
    setGallery(next);
    setNotice({ ok: true, text });
    setFocus(focusId ?? null);
  }, []);

  const patch = (key: string, change: Partial<Upload>) =>
    setUploads((all) => all.map((u) => (u.key === key ? { ...u, ...change } : u)));

  function start(files: File[]) {
    setNotice(null);
    for (const file of files) {
      const key = `upload-${++counter.current}`;
      setUploads((all) => [...all, { key, name: file.name, progress: 0, error: null }]);
      consoleApi
        .uploadImage(slug, productId, file, (progress) => patch(key, { progress }))
        .then(async () => {
          setUploads((all) => all.filter((u) => u.key !== key));
          // The whole gallery again: uploads side by side each land at its end, in the server's order.
          setGallery((await consoleApi.images(slug, productId)).data);
          setNotice({ ok: true, text: `${file.name} uploaded. Add its alt text below.` });
        })
        .catch((error: unknown) => patch(key, { error: messageOf(error) }));
    }
  }

  return (
    <section aria-labelledby="images-heading">
      <h2 id="images-heading">Images</h2>
      <DropZone onFiles={start} />
      {uploads.length > 0 && (
        <ul className="console__list" aria-label="Uploads">
          {uploads.map((u) => (
            <li key={u.key} className="console__panel">
              {u.error ? (
                <div className="alert alert--error" role="alert">
                  {u.name}: {u.error}{' '}
                  <button
                    type="button"
                    className="button"
                    onClick={() => setUploads((all) => all.filter((x) => x.key !== u.key))}
                  >
                    Dismiss
                  </button>
                </div>
              ) : (
                <label className="console__upload">
                  Uploading {u.name}
                  <progress max={1} value={u.progress} />
                </label>
              )}
            </li>
          ))}
        </ul>
      )}
      <div aria-live="polite">
        <NoticeLine notice={notice} />
      </div>
      {gallery === null ? (
        <p role="status">Loading images…</p>
      ) : gallery.length === 0 ? (
        <p>No images yet.</p>
      ) : (
        <ol className="console__list" aria-label="Images, in gallery order">
          {gallery.map((image, index) => (
            <ImageItem
              key={image.id}
              slug={slug}
              productId={productId}
              image={image}
              index={index}
              count={gallery.length}
              onChanged={changed}
            />
          ))}
        </ol>
      )}
      <p className="console__hint">
        The default image leads the product page and the product’s cards. Public pages show these changes with the next
        publish; a restricted store’s pages at once.
      </p>
    </section>
  );
}
