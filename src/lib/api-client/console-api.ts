/**
 * The console's calls (`/api/admin/…`, docs/decisions/197-operator-auth.md). Always same-origin: the
 * session cookie is SameSite=Strict and HttpOnly; writes carry the session's CSRF token, which `me` and
 * `confirmSignIn` hand over.
 */
import type {
  AllowedRecipient,
  AuditEntry,
  AutoPublish,
  Build,
  BuildStarted,
  ErrorBody,
  ConsoleBundle,
  ConsoleBundleSummary,
  ConsoleCollection,
  ConsoleCollectionSummary,
  ConsoleGiftCard,
  ConsoleGiftCardDetail,
  ConsoleProduct,
  ConsoleProductImage,
  ConsoleProductSummary,
  ConsoleOrder,
  ConsoleOrderSummary,
  ConsoleSession,
  ConsoleStoreSettings,
  DomainToken,
  Many,
  NewDomainToken,
  One,
  OperatorRole,
  ProductRemoval,
  RecipientImport,
  StaffMember,
  VariantRemoval,
} from '../contract/answers.ts';
import type {
  BundleCreatePayload,
  BundleEditPayload,
  CollectionCreatePayload,
  CollectionEditPayload,
  CollectionItemsPayload,
  ProductCreatePayload,
  ProductEditPayload,
  ProductImageEditPayload,
  ProductVariantsPayload,
  StockAdjustmentPayload,
  StoreSettingsPayload,
  VariantAddPayload,
} from '../contract/payloads.ts';

/** A refused console call: its status, message, field errors (422) and the running build a publish met (409). */
export class ConsoleError extends Error {
  readonly status: number;
  readonly errors: Record<string, string[]>;
  readonly build: ErrorBody['build'] | null;
  constructor(status: number, message: string, errors: Record<string, string[]> = {}, build?: ErrorBody['build']) {
    super(message);
    this.name = 'ConsoleError';
    this.status = status;
    this.errors = errors;
    this.build = build ?? null;
  }
}

let csrfToken = '';
const UNEXPECTED = 'Sorry an unexpected error occurred, please try again.';

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  const response = await fetch(`/api/admin${path}`, {
    method,
    headers,
    credentials: 'same-origin',
    cache: 'no-store',
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const answer = (await response.json().catch(() => ({}))) as Partial<ErrorBody>;
  if (!response.ok) throw new ConsoleError(response.status, answer.message ?? UNEXPECTED, answer.errors, answer.build);
  return answer as T;
}

/**
 * Uploads one file as `multipart/form-data` with XMLHttpRequest, the one browser API that reports
 * upload progress (`fetch` does not); refusals become the same ConsoleError as `call`'s.
 */
function upload<T>(path: string, form: FormData, onProgress: (fraction: number) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', `/api/admin${path}`);
    request.withCredentials = true;
    if (csrfToken) request.setRequestHeader('x-csrf-token', csrfToken);
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    });
    request.addEventListener('load', () => {
      let answer: { message?: string; errors?: Record<string, string[]> } = {};
      try {
        answer = JSON.parse(request.responseText) as typeof answer;
      } catch {
        // A proxy's HTML error page: the status says enough.
      }
      if (request.status >= 200 && request.status < 300) resolve(answer as T);
      else reject(new ConsoleError(request.status, answer.message ?? UNEXPECTED, answer.errors));
    });
    request.addEventListener('error', () =>
      reject(new ConsoleError(0, 'The upload failed: check the connection and try again.')),
    );
    request.send(form);
  });
}

async function remember(session: Promise<ConsoleSession>): Promise<ConsoleSession> {
  const answer = await session;
  csrfToken = answer.csrf_token;
  return answer;
}

const store = (slug: string) => `/stores/${encodeURIComponent(slug)}`;

export const consoleApi = {
  me: () => remember(call<ConsoleSession>('GET', '/me')),
  requestSignIn: (email: string) => call<{ message: string }>('POST', '/sign_in', { email }),
  confirmSignIn: (token: string) => remember(call<ConsoleSession>('POST', '/sign_in/confirm', { token })),
  signOut: () => call<{ message: string }>('POST', '/sign_out'),
  signOutEverywhere: () => call<{ message: string }>('POST', '/sign_out_everywhere'),
  staff: (slug: string) => call<Many<StaffMember>>('GET', `${store(slug)}/staff`),
  invite: (slug: string, email: string, role: OperatorRole) =>
    call<One<StaffMember>>('POST', `${store(slug)}/staff`, { email, role }),
  changeRole: (slug: string, id: string, role: OperatorRole) =>
    call<One<StaffMember>>('PATCH', `${store(slug)}/staff/${id}`, { role }),
  remove: (slug: string, id: string) => call<{ message: string }>('DELETE', `${store(slug)}/staff/${id}`),
  audit: (slug: string, page: number) => call<Many<AuditEntry>>('GET', `${store(slug)}/audit?page=${page}`),
  products: (slug: string, q: string, page: number) =>
    call<Many<ConsoleProductSummary>>(
      'GET',
      `${store(slug)}/products?${new URLSearchParams({ q, page: String(page) }).toString()}`,
    ),
  product: (slug: string, id: string) => call<One<ConsoleProduct>>('GET', `${store(slug)}/products/${id}`),
  saveProduct: (slug: string, id: string, edit: ProductEditPayload) =>
    call<One<ConsoleProduct>>('PATCH', `${store(slug)}/products/${id}`, edit),
  adjustStock: (slug: string, id: string, adjustment: StockAdjustmentPayload) =>
    call<One<ConsoleProduct>>('POST', `${store(slug)}/products/${id}/stock_adjustments`, adjustment),
  createProduct: (slug: string, product: ProductCreatePayload) =>
    call<One<ConsoleProduct>>('POST', `${store(slug)}/products`, product),
  removeProduct: (slug: string, id: string, version: number) =>
    call<ProductRemoval>('DELETE', `${store(slug)}/products/${id}?version=${version}`),
  restoreProduct: (slug: string, id: string, version: number) =>
    call<One<ConsoleProduct>>('POST', `${store(slug)}/products/${id}/restore`, { version }),
  saveVariants: (slug: string, id: string, form: ProductVariantsPayload) =>
    call<One<ConsoleProduct>>('PUT', `${store(slug)}/products/${id}/variants`, form),
  addVariant: (slug: string, id: string, variant: VariantAddPayload) =>
    call<One<ConsoleProduct>>('POST', `${store(slug)}/products/${id}/variants`, variant),
  removeVariant: (slug: string, id: string, variantId: string, version: number) =>
    call<VariantRemoval>('DELETE', `${store(slug)}/products/${id}/variants/${variantId}?version=${version}`),
  restoreVariant: (slug: string, id: string, variantId: string, version: number) =>
    call<One<ConsoleProduct>>('POST', `${store(slug)}/products/${id}/variants/${variantId}/restore`, { version }),
  images: (slug: string, id: string) => call<Many<ConsoleProductImage>>('GET', `${store(slug)}/products/${id}/images`),
  uploadImage: (slug: string, id: string, file: File, onProgress: (fraction: number) => void) => {
    const form = new FormData();
    form.append('file', file);
    return upload<One<ConsoleProductImage>>(`${store(slug)}/products/${id}/images`, form, onProgress);
  },
  updateImage: (slug: string, id: string, imageId: string, edit: ProductImageEditPayload) =>
    call<Many<ConsoleProductImage>>('PATCH', `${store(slug)}/products/${id}/images/${imageId}`, edit),
  deleteImage: (slug: string, id: string, imageId: string) =>
    call<Many<ConsoleProductImage>>('DELETE', `${store(slug)}/products/${id}/images/${imageId}`),
  settings: (slug: string) => call<One<ConsoleStoreSettings>>('GET', `${store(slug)}/settings`),
  saveSettings: (slug: string, settings: StoreSettingsPayload) =>
    call<One<ConsoleStoreSettings>>('PUT', `${store(slug)}/settings`, settings),
  uploadFavicon: (slug: string, file: File, onProgress: (fraction: number) => void) => {
    const form = new FormData();
    form.append('file', file);
    return upload<One<ConsoleStoreSettings>>(`${store(slug)}/settings/favicon`, form, onProgress);
  },
  collections: (slug: string) => call<Many<ConsoleCollectionSummary>>('GET', `${store(slug)}/collections`),
  createCollection: (slug: string, fields: CollectionCreatePayload) =>
    call<One<ConsoleCollection>>('POST', `${store(slug)}/collections`, fields),
  collection: (slug: string, id: string) => call<One<ConsoleCollection>>('GET', `${store(slug)}/collections/${id}`),
  saveCollection: (slug: string, id: string, edit: CollectionEditPayload) =>
    call<One<ConsoleCollection>>('PATCH', `${store(slug)}/collections/${id}`, edit),
  setCollectionItems: (slug: string, id: string, items: CollectionItemsPayload) =>
    call<One<ConsoleCollection>>('PUT', `${store(slug)}/collections/${id}/items`, items),
  deleteCollection: (slug: string, id: string) =>
    call<{ message: string }>('DELETE', `${store(slug)}/collections/${id}`),
  bundles: (slug: string, q: string, page: number) =>
    call<Many<ConsoleBundleSummary>>(
      'GET',
      `${store(slug)}/bundles?${new URLSearchParams({ q, page: String(page) }).toString()}`,
    ),
  createBundle: (slug: string, fields: BundleCreatePayload) =>
    call<One<ConsoleBundle>>('POST', `${store(slug)}/bundles`, fields),
  bundle: (slug: string, id: string) => call<One<ConsoleBundle>>('GET', `${store(slug)}/bundles/${id}`),
  saveBundle: (slug: string, id: string, edit: BundleEditPayload) =>
    call<One<ConsoleBundle>>('PATCH', `${store(slug)}/bundles/${id}`, edit),
  deleteBundle: (slug: string, id: string) => call<{ message: string }>('DELETE', `${store(slug)}/bundles/${id}`),
  giftCards: (slug: string, page: number) =>
    call<Many<ConsoleGiftCard>>('GET', `${store(slug)}/gift_cards?page=${page}`),
  issueGiftCard: (slug: string, amount: string, note: string) =>
    call<One<ConsoleGiftCard>>('POST', `${store(slug)}/gift_cards`, { amount, note }),
  giftCard: (slug: string, id: string) => call<One<ConsoleGiftCardDetail>>('GET', `${store(slug)}/gift_cards/${id}`),
  adjustGiftCard: (slug: string, id: string, change: string, note: string) =>
    call<One<ConsoleGiftCardDetail>>('POST', `${store(slug)}/gift_cards/${id}/adjustments`, { change, note }),
  builds: (slug: string) => call<Many<Build>>('GET', `${store(slug)}/builds`),
  /** Publish: a build that goes live once rendered; `goLive` false stops at `ready` (a preview). */
  publish: (slug: string, goLive = true) =>
    call<One<BuildStarted>>('POST', `${store(slug)}/builds`, { go_live: goLive }),
  autoPublish: (slug: string) => call<One<AutoPublish>>('GET', `${store(slug)}/auto_publish`),
  setAutoPublish: (slug: string, setting: { enabled: boolean; quiet_seconds: number }) =>
    call<One<AutoPublish>>('PUT', `${store(slug)}/auto_publish`, setting),
  /** Makes a kept build live: going live, or rolling back to an older one. */
  goLive: (slug: string, id: string) =>
    call<One<Build>>('POST', `${store(slug)}/builds/${encodeURIComponent(id)}/live`),
  /** Where the front opens a preview of a ready build for this session (docs/decisions/208-preview-and-live-build.md). */
  previewUrl: (slug: string, id: string) => `/admin/${slug}/preview/${encodeURIComponent(id)}`,
  /** The build's Server-Sent Events (progress, then done or failed), with the session cookie. */
  buildEventsUrl: (id: string) => `/api/admin/builds/${encodeURIComponent(id)}/events`,
  disableGiftCard: (slug: string, id: string) =>
    call<One<ConsoleGiftCardDetail>>('POST', `${store(slug)}/gift_cards/${id}/disable`, { note: '' }),
  /** `filters` as the page's URL has them (q, status, from, to, email, number, page). */
  orders: (slug: string, filters: URLSearchParams) =>
    call<Many<ConsoleOrderSummary>>('GET', `${store(slug)}/orders?${filters.toString()}`),
  order: (slug: string, id: string) =>
    call<One<ConsoleOrder>>('GET', `${store(slug)}/orders/${encodeURIComponent(id)}`),
  refund: (slug: string, id: string, refund: { amount: string; restock: string[]; idempotency_key: string }) =>
    call<One<ConsoleOrder>>('POST', `${store(slug)}/orders/${encodeURIComponent(id)}/refunds`, refund),
  retryRefund: (slug: string, id: string, refundId: string) =>
    call<One<ConsoleOrder>>(
      'POST',
      `${store(slug)}/orders/${encodeURIComponent(id)}/refunds/${encodeURIComponent(refundId)}/retry`,
    ),
  fulfil: (slug: string, id: string, shipment: { carrier: string; tracking_number: string }) =>
    call<One<ConsoleOrder>>('POST', `${store(slug)}/orders/${encodeURIComponent(id)}/fulfillment`, shipment),
  recipients: (slug: string, q: string, page: number) =>
    call<Many<AllowedRecipient>>(
      'GET',
      `${store(slug)}/recipients?${new URLSearchParams({ q, page: String(page) }).toString()}`,
    ),
  addRecipient: (slug: string, email: string) =>
    call<One<AllowedRecipient>>('POST', `${store(slug)}/recipients`, { email }),
  reinviteRecipient: (slug: string, id: string) =>
    call<One<AllowedRecipient>>('POST', `${store(slug)}/recipients/${encodeURIComponent(id)}/invitation`),
  removeRecipient: (slug: string, id: string) =>
    call<{ message: string }>('DELETE', `${store(slug)}/recipients/${encodeURIComponent(id)}`),
  importRecipients: (slug: string, file: File, onProgress: (fraction: number) => void) => {
    const form = new FormData();
    form.append('file', file);
    return upload<One<RecipientImport>>(`${store(slug)}/recipients/import`, form, onProgress);
  },
  domainTokens: (slug: string) => call<Many<DomainToken>>('GET', `${store(slug)}/domain_tokens`),
  createDomainToken: (slug: string, label: string) =>
    call<One<NewDomainToken>>('POST', `${store(slug)}/domain_tokens`, { label }),
  revokeDomainToken: (slug: string, id: string) =>
    call<{ message: string }>('DELETE', `${store(slug)}/domain_tokens/${encodeURIComponent(id)}`),
};
