import { sql, type Kysely } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import * as initial from './migrations/0001_initial.ts';
import * as paymentReleases from './migrations/0002_payment_releases.ts';
import * as singleVariantLines from './migrations/0003_single_variant_lines.ts';
import * as moneyBigint from './migrations/0004_money_bigint.ts';
import * as stock from './migrations/0005_stock.ts';
import * as mailOutbox from './migrations/0006_mail_outbox.ts';
import * as reconciliation from './migrations/0007_reconciliation.ts';
import * as destinationPricing from './migrations/0008_destination_pricing.ts';
import * as storePolicies from './migrations/0009_store_policies.ts';
import * as storeHeroImage from './migrations/0010_store_hero_image.ts';
import * as collections from './migrations/0011_collections.ts';
import * as search from './migrations/0012_search.ts';
import * as variantImages from './migrations/0014_variant_images.ts';
import * as listingColumns from './migrations/0015_listing_columns.ts';
import * as operators from './migrations/0016_operators.ts';
import * as orderOperations from './migrations/0017_order_operations.ts';
import * as catalogEditing from './migrations/0018_catalog_editing.ts';
import * as uploadedImages from './migrations/0019_uploaded_images.ts';
import * as builds from './migrations/0020_builds.ts';
import * as storeSettingsVersion from './migrations/0021_store_settings_version.ts';
import * as storeAccessLists from './migrations/0022_store_access_lists.ts';
import * as collectionBundleVersions from './migrations/0023_collection_bundle_versions.ts';
import * as variantEditing from './migrations/0024_variant_editing.ts';
import * as liveBuild from './migrations/0025_live_build.ts';
import * as owedConsoleRefunds from './migrations/0026_owed_console_refunds.ts';
import * as buildHeartbeat from './migrations/0027_build_heartbeat.ts';
import * as listingChanges from './migrations/0028_listing_changes.ts';
import * as bundleItemsByBundle from './migrations/0029_bundle_items_by_bundle.ts';
import * as catalogChanges from './migrations/0030_catalog_changes.ts';
import * as catalogChangesWithoutJoins from './migrations/0031_catalog_changes_without_joins.ts';

/** Migrations are listed here, not discovered on disk, so they work from any working directory and bundler. */
const migrations: Record<string, Migration> = {
  '0001_initial': initial,
  '0002_payment_releases': paymentReleases,
  '0003_single_variant_lines': singleVariantLines,
  '0004_money_bigint': moneyBigint,
  '0005_stock': stock,
  '0006_mail_outbox': mailOutbox,
  '0007_reconciliation': reconciliation,
  '0008_destination_pricing': destinationPricing,
  '0009_store_policies': storePolicies,
  '0010_store_hero_image': storeHeroImage,
  '0011_collections': collections,
  '0012_search': search,
  '0014_variant_images': variantImages,
  '0015_listing_columns': listingColumns,
  '0016_operators': operators,
  '0017_order_operations': orderOperations,
  '0018_catalog_editing': catalogEditing,
  '0019_uploaded_images': uploadedImages,
  '0020_builds': builds,
  '0021_store_settings_version': storeSettingsVersion,
  '0022_store_access_lists': storeAccessLists,
  '0023_collection_bundle_versions': collectionBundleVersions,
  '0024_variant_editing': variantEditing,
  '0025_live_build': liveBuild,
  '0026_owed_console_refunds': owedConsoleRefunds,
  '0027_build_heartbeat': buildHeartbeat,
  '0028_listing_changes': listingChanges,
  '0029_bundle_items_by_bundle': bundleItemsByBundle,
  '0030_catalog_changes': catalogChanges,
  '0031_catalog_changes_without_joins': catalogChangesWithoutJoins,
};

const provider: MigrationProvider = { getMigrations: () => Promise.resolve(migrations) };

/** Brings the schema to the latest version; throws with the failing migration's name and cause. */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  // Kysely looks for its own tables in any schema unless told which: with one schema per test file
  // on a shared PostgreSQL, another file's kysely_migration_lock would be taken for ours.
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const migrator = new Migrator({
    db,
    provider,
    migrationTableSchema: rows[0]?.schema ?? 'public',
    // Numbers are handed out to work done side by side, which lands in any order (0018 was applied
    // before 0017 in some databases): each migration stands alone, so a missing earlier one still runs.
    allowUnorderedMigrations: true,
  });
  const { error, results = [] } = await migrator.migrateToLatest();
  const failed = results.find((r) => r.status === 'Error');
  if (error) {
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed`, { cause: error });
  }
  return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
