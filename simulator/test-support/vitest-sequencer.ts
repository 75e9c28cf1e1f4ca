// The order test files start in, for `npm test` on two workers: longest first, so the two workers end
// together instead of one running a long file alone at the end.
// - vitest already sorts by the durations of the previous run (its cache under node_modules/.vite), but a
//   fresh clone (CI's `npm ci`) has none, and its fallback, larger files first, started the violation
//   matrix (four 3-line files running a kit run per violation) last.
// - So files without a cached duration are ordered by ESTIMATED_SECONDS (measured), then end-to-end
//   suites before unit tests, then larger first. Only the order depends on it: a stale estimate costs
//   time, never a result.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds the files of 6 s or more took in a clean-clone `bash .ci/run` on the project's two-core machine
 * (2026-11-28, session 29, eight workers: the CI's scale, where a worker waits on the CPU), unit files among
 * them: one that takes 6 s started among the 0.2 s estimates would end the run alone. Ordered by these, the
 * run's files end within a few seconds of one another; by the older quiet-machine table (session 15), the
 * violation shards and birch started late and the run's tail was about 75 s longer (simulated on that
 * run's durations). Birch, hazel and ivy were shortened since (shorter rate-limit windows). Files not
 * listed count as DEFAULT_E2E_SECONDS or DEFAULT_UNIT_SECONDS; a new file of a kit run or more gets its
 * estimate on this scale (about 40 s for a suite of independent runs).
 */
export const ESTIMATED_SECONDS: Readonly<Record<string, number>> = {
  'conformance/e2e/violations-1.e2e.test.ts': 252,
  'conformance/e2e/violations-3.e2e.test.ts': 232,
  'conformance/e2e/violations-2.e2e.test.ts': 230,
  'conformance/e2e/violations-4.e2e.test.ts': 230,
  'conformance/e2e/alt-variants-4.e2e.test.ts': 89,
  'conformance/e2e/alt-variants-2.e2e.test.ts': 80,
  'conformance/e2e/independent-birch.e2e.test.ts': 80,
  'simulator/e2e/reliability/attacks-round6-load.e2e.test.ts': 70,
  'conformance/e2e/alt-variants-1.e2e.test.ts': 69,
  'conformance/e2e/independent-elm.e2e.test.ts': 68,
  'conformance/e2e/alt-variants-3.e2e.test.ts': 67,
  'conformance/e2e/independent-hazel.e2e.test.ts': 60,
  'conformance/e2e/independent-tulip.e2e.test.ts': 60,
  'conformance/e2e/independent-ivy.e2e.test.ts': 60,
  'conformance/e2e/independent-fern.e2e.test.ts': 60,
  'conformance/e2e/independent-wisteria.e2e.test.ts': 58,
  'conformance/e2e/independent-hawthorn.e2e.test.ts': 58,
  'conformance/e2e/independent-gorse.e2e.test.ts': 57,
  'conformance/e2e/independent-totara.e2e.test.ts': 60,
  'conformance/e2e/independent-kowhai.e2e.test.ts': 60,
  'conformance/e2e/independent-maple.e2e.test.ts': 52,
  'conformance/e2e/independent-juniper.e2e.test.ts': 52,
  'conformance/e2e/independent-spruce.e2e.test.ts': 50,
  'conformance/e2e/independent-dahlia.e2e.test.ts': 49,
  'conformance/e2e/independent-cedar.e2e.test.ts': 49,
  'conformance/e2e/independent-magnolia.e2e.test.ts': 49,
  'conformance/e2e/independent-zelkova.e2e.test.ts': 47,
  'conformance/e2e/independent-pine.e2e.test.ts': 44,
  'conformance/e2e/independent-olive.e2e.test.ts': 44,
  'conformance/e2e/independent-tupelo.e2e.test.ts': 41,
  'conformance/e2e/independent-sequoia.e2e.test.ts': 41,
  'conformance/e2e/independent-atlas.e2e.test.ts': 39,
  'conformance/e2e/independent-yarrow.e2e.test.ts': 39,
  'conformance/e2e/independent-acacia.e2e.test.ts': 38,
  'conformance/e2e/independent-cassia.e2e.test.ts': 38,
  'conformance/e2e/independent-mahogany.e2e.test.ts': 38,
  'conformance/e2e/independent-sandalwood.e2e.test.ts': 38,
  'conformance/e2e/independent-ebony.e2e.test.ts': 38,
  'conformance/e2e/independent-ironbark.e2e.test.ts': 38,
  'conformance/e2e/independent-almond.e2e.test.ts': 38,
  'conformance/e2e/independent-kauri.e2e.test.ts': 38,
  'conformance/e2e/independent-medlar.e2e.test.ts': 38,
  'conformance/e2e/independent-dogwood.e2e.test.ts': 38,
  'conformance/e2e/unseen.e2e.test.ts': 38,
  'conformance/e2e/independent-ginkgo.e2e.test.ts': 38,
  'conformance/e2e/independent-willow.e2e.test.ts': 37,
  'conformance/e2e/independent-buckeye.e2e.test.ts': 37,
  'conformance/e2e/independent-larch.e2e.test.ts': 36,
  'conformance/e2e/independent-poplar.e2e.test.ts': 36,
  'conformance/e2e/clean.e2e.test.ts': 36,
  'conformance/e2e/independent-tamarack.e2e.test.ts': 35,
  'conformance/e2e/independent-rowan.e2e.test.ts': 35,
  'conformance/e2e/independent-laurel.e2e.test.ts': 35,
  'conformance/e2e/independent-basswood.e2e.test.ts': 34,
  'simulator/e2e/reliability/attacks-round9-kit-openapi.e2e.test.ts': 34,
  'conformance/e2e/independent-redwood.e2e.test.ts': 34,
  'conformance/e2e/independent-sumac.e2e.test.ts': 34,
  'conformance/e2e/independent-beech.e2e.test.ts': 33,
  'conformance/e2e/independent-chestnut.e2e.test.ts': 33,
  'conformance/e2e/independent-ironwood.e2e.test.ts': 32,
  'conformance/e2e/independent-cherry.e2e.test.ts': 31,
  'conformance/e2e/independent-cypress.e2e.test.ts': 31,
  'conformance/e2e/independent-walnut.e2e.test.ts': 31,
  'conformance/e2e/independent-bamboo.e2e.test.ts': 31,
  'conformance/e2e/independent-catalpa.e2e.test.ts': 30,
  'simulator/e2e/reliability/attacks-round9-kit.e2e.test.ts': 29,
  'simulator/e2e/client-verdicts/unnamed-clients-8.e2e.test.ts': 29,
  'conformance/e2e/independent-kapok.e2e.test.ts': 29,
  'conformance/e2e/independent-yew.e2e.test.ts': 29,
  'conformance/e2e/independent-bayberry.e2e.test.ts': 29,
  'conformance/e2e/independent-sweetgum.e2e.test.ts': 29,
  'conformance/e2e/independent-linden.e2e.test.ts': 29,
  'conformance/e2e/independent-ailanthus.e2e.test.ts': 28,
  'conformance/e2e/independent-cottonwood.e2e.test.ts': 28,
  'conformance/e2e/independent-aspen.e2e.test.ts': 28,
  'conformance/e2e/independent-palmetto.e2e.test.ts': 28,
  'conformance/e2e/independent-holly.e2e.test.ts': 28,
  'conformance/e2e/independent-sorrel.e2e.test.ts': 27,
  'conformance/e2e/cli.e2e.test.ts': 27,
  'conformance/e2e/independent-mangrove.e2e.test.ts': 27,
  'conformance/e2e/independent-alder.e2e.test.ts': 27,
  'conformance/e2e/independent-tamarind.e2e.test.ts': 27,
  'conformance/e2e/independent-hickory.e2e.test.ts': 27,
  'conformance/e2e/independent-boxelder.e2e.test.ts': 27,
  'conformance/e2e/independent-mesquite.e2e.test.ts': 27,
  'conformance/e2e/independent-sourwood.e2e.test.ts': 27,
  'conformance/e2e/independent-myrtle.e2e.test.ts': 26,
  'conformance/e2e/independent-sassafras.e2e.test.ts': 26,
  'conformance/e2e/independent-quince.e2e.test.ts': 26,
  'conformance/e2e/mutations.e2e.test.ts': 26,
  'conformance/e2e/independent-rosewood.e2e.test.ts': 25,
  'conformance/e2e/independent-redbud.e2e.test.ts': 25,
  'conformance/e2e/independent-hemlock.e2e.test.ts': 25,
  'conformance/e2e/independent-baobab.e2e.test.ts': 25,
  'conformance/e2e/independent-locust.e2e.test.ts': 25,
  'conformance/e2e/independent-mulberry.e2e.test.ts': 24,
  'conformance/e2e/independent-oak.e2e.test.ts': 24,
  'conformance/e2e/independent-persimmon.e2e.test.ts': 23,
  'conformance/e2e/independent-hornbeam.e2e.test.ts': 23,
  'conformance/e2e/independent-hackberry.e2e.test.ts': 23,
  'conformance/e2e/independent-buttonwood.e2e.test.ts': 22,
  'conformance/e2e/alt-choices.e2e.test.ts': 22,
  'conformance/e2e/independent-sycamore.e2e.test.ts': 22,
  'conformance/e2e/independent-pawpaw.e2e.test.ts': 20,
  'conformance/e2e/independent-blackthorn.e2e.test.ts': 20,
  'conformance/e2e/independent-teak.e2e.test.ts': 20,
  'conformance/e2e/independent-jacaranda.e2e.test.ts': 19,
  'simulator/e2e/reliability/attacks-round8-http.e2e.test.ts': 18,
  'conformance/e2e/independent-guava.e2e.test.ts': 18,
  'simulator/e2e/reliability/attacks-round8-redis-damage.e2e.test.ts': 17,
  'simulator/e2e/reliability/attacks-round8-cli.e2e.test.ts': 16,
  'simulator/package/start-modules.e2e.test.ts': 15,
  'conformance/e2e/independent-banyan.e2e.test.ts': 15,
  'conformance/e2e/rate-limit-beyond.e2e.test.ts': 14,
  'simulator/e2e/reliability/attacks-round9-kit-more.e2e.test.ts': 14,
  'conformance/e2e/cleanup.e2e.test.ts': 14,
  'simulator/e2e/http-sqlite.e2e.test.ts': 12,
  'simulator/e2e/msw.e2e.test.ts': 12,
  'simulator/e2e/reliability/secret-scan.e2e.test.ts': 12,
  'simulator/e2e/reliability/attacks-round7-files.e2e.test.ts': 11,
  'simulator/e2e/shared/webhook-takeover.e2e.test.ts': 11,
  'simulator/package/source-bundle.e2e.test.ts': 11,
  'simulator/e2e/shared/runs.e2e.test.ts': 11,
  'simulator/e2e/reliability/attacks-round8-redis.e2e.test.ts': 10,
  'simulator/e2e/reliability/attacks-round9-kit-secrets.e2e.test.ts': 9,
  'conformance/e2e/hostile.e2e.test.ts': 9,
  'simulator/e2e/http-redis.e2e.test.ts': 9,
  'simulator/e2e/shared/two-replicas.e2e.test.ts': 8,
  'conformance/e2e/rate-limit-burst.e2e.test.ts': 8,
  'simulator/e2e/inspector-browser.e2e.test.ts': 8,
  'simulator/e2e/client-verdicts/unnamed-clients-14.e2e.test.ts': 8,
  'simulator/e2e/reliability/attacks-round9-data-dir.e2e.test.ts': 7,
  'simulator/e2e/reliability/shutdown-keep-alive.e2e.test.ts': 7,
  'simulator/e2e/reliability/transport.e2e.test.ts': 7,
  'simulator/e2e/http.e2e.test.ts': 7,
  'conformance/e2e/severity-policy.e2e.test.ts': 7,
  'simulator/e2e/reliability/data-dir.e2e.test.ts': 7,
  'bin/cli/ncs-compile-cache.e2e.test.ts': 7,
  'simulator/e2e/reliability/attacks-round6.e2e.test.ts': 6,
  'simulator/package/cli-bundle.e2e.test.ts': 6,
  'simulator/e2e/client-verdicts/unnamed-clients-27.e2e.test.ts': 6,
  'conformance/e2e/alt-identical-writes.e2e.test.ts': 6,
};
const DEFAULT_E2E_SECONDS = 2;
const DEFAULT_UNIT_SECONDS = 0.2;

/** Path relative to the project root, with forward slashes. */
const relative = (spec: TestSpecification) =>
  spec.moduleId.replaceAll('\\', '/').slice(spec.project.config.root.replaceAll('\\', '/').length + 1);

/**
 * Estimated seconds of a file with no cached duration.
 * @example estimateSeconds('conformance/e2e/cli.e2e.test.ts') // 17
 */
export function estimateSeconds(path: string): number {
  return ESTIMATED_SECONDS[path] ?? (/\.e2e\.test\.ts$/.test(path) ? DEFAULT_E2E_SECONDS : DEFAULT_UNIT_SECONDS);
}

/** vitest's sequencer, with measured estimates where it has no cached duration (see the top of this file). */
export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cache = this.ctx.cache;
    if (files.every((spec) => cache.getTestSpecificationResult(spec))) return super.sort(files);
    // Cached durations where there are some, estimates elsewhere, on one scale (seconds).
    const seconds = new Map(
      files.map((spec) => {
        const cached = cache.getTestSpecificationResult(spec);
        return [spec, cached ? cached.duration / 1000 : estimateSeconds(relative(spec))] as const;
      }),
    );
    // The base order (failed first, then by its own rules) breaks ties.
    const base = await super.sort(files);
    const rank = new Map(base.map((spec, i) => [spec, i]));
    return [...files].sort(
      (a, b) => (seconds.get(b) ?? 0) - (seconds.get(a) ?? 0) || (rank.get(a) ?? 0) - (rank.get(b) ?? 0),
    );
  }
}
