/**
 * The catalog pages' own client script (besides the layout's boot script): the preload queue and
 * the build poller. Kept framework-free and tiny: store front and shop pages must load almost no
 * JavaScript (docs/decisions/060-benchmarks-and-budgets.md). The chunk-load guard lives with the pages that load chunks (shell-ui.ts).
 */
import { installBuildPoller } from './build-poller.ts';
import { installPreloadQueue } from './preload-queue.ts';

const flagged = window as Window & { __catalogBoot?: true };
// Included by pages and possibly by the layout too: install once.
if (!flagged.__catalogBoot) {
  flagged.__catalogBoot = true;
  installBuildPoller(installPreloadQueue());
}
