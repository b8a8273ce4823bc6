/**
 * The API client (spec §7 plus the extensions in docs/api.md), for the browser and the server:
 * import every call from here. A call is a standalone function of a requester
 * (`getCart(browserRequester(), slug)`), so a bundle carries only the calls it imports. The calls
 * sit in one file per resource, and the cart's read apart from its changes: a bundler places a
 * whole file in one chunk, and the store front's boot script (store, cart read, requester) has a
 * 5 KB budget (docs/decisions/170-services-and-one-api-client.md). That boot path alone
 * (src/stores/cart-core.ts, src/scripts/store-check.ts) imports its files directly: through this
 * index, the bundler puts every re-exported call in the chunk every page loads.
 */
export { ApiError, NetworkError } from '../api-error.ts';
export {
  browserRequester,
  createRequester,
  internalApiBaseUrl,
  publicApiBaseUrl,
  type ApiClientOptions,
  type Requester,
} from './requester.ts';
export { bindCalls, type BoundCalls } from './bind-calls.ts';
export { getStore, getStoreByDomain } from './stores.ts';
export { verifyAllowedUser } from './allowed-users.ts';
export {
  getBundle,
  getPolicy,
  getProduct,
  listBundleItems,
  listBundles,
  listListings,
  listProducts,
  listProductVariants,
} from './catalog.ts';
export { getCart } from './cart.ts';
export {
  addCartLine,
  applyGiftCard,
  changeCartLine,
  putAddress,
  removeCartLine,
  removeGiftCard,
} from './cart-changes.ts';
export { checkout, finalize, getOrder } from './checkout.ts';
