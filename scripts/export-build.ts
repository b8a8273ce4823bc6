/**
 * `npm run export -- --build ID --out DIR`: writes one build of BUILDS_DIR for a static host — its pages,
 * assets and image files, `_headers` and `_manifest.json` (docs/decisions/212-builds-as-static-artifacts.md).
 */
import { parseArgs } from 'node:util';
import { exportBuild, ExportRefused } from '../src/front/export-build.ts';
import { loadConfig } from '../src/server/config.ts';

const usage = 'Usage: npm run export -- --build ID --out DIR';
let values: { build?: string | undefined; out?: string | undefined };
try {
  ({ values } = parseArgs({ options: { build: { type: 'string' }, out: { type: 'string' } } }));
} catch (error) {
  console.error(`${(error as Error).message}\n${usage}`);
  process.exit(2);
}
if (!values.build || !values.out) {
  console.error(usage);
  process.exit(2);
}
try {
  const { files } = await exportBuild({
    buildsDir: loadConfig(process.env).BUILDS_DIR,
    id: values.build,
    out: values.out,
  });
  console.log(`Build ${values.build}: ${files} files written to ${values.out}`);
} catch (error) {
  if (!(error instanceof ExportRefused)) throw error;
  console.error(error.message);
  process.exitCode = 1;
}
