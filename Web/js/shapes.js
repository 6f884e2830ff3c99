// The JSON the views read, in one place: the read API's shapes as the service's OpenAPI document
// (GET /api/v1/openapi.json, Sources/FailscopeService/OpenAPIDocument.swift) defines them, limited to
// the fields the dashboard uses. Views read these names and nothing else: no fallbacks to other
// spellings, no probing of the document at run time. A field marked `?` may be absent.
//
// A result's outcome, the flaky and broken rules (docs/flaky.md) and the counts are the service's;
// the views show them and never recount them.

/**
 * @typedef {{file: string, line: number}} SourceLocation  a file and line (XCTest's `XCTSourceCodeLocation`)
 * @typedef {'passed'|'failed'|'error'|'skipped'|'expected_failure'} TestStatus
 * @typedef {'incomplete'|'passed'|'failed'} RunStatus
 * @typedef {'reporter'|'junit'|'event_stream'|'xcresult'} RunSource  `reporter`: FailscopeReporter; the others: imported
 *
 * @typedef {object} Run
 * @property {string} id
 * @property {string} project
 * @property {string} [branch]
 * @property {string} [commit]
 * @property {string} [device]
 * @property {string} [osVersion]
 * @property {string} [ciProvider]
 * @property {string} [ciBuildURL]
 * @property {string} [ciJob]
 * @property {RunSource} source
 * @property {string} startedAt  ISO 8601
 * @property {string} [finishedAt]
 *
 * @typedef {object} ResultCounts  results per status (every attempt counts)
 * @property {number} total
 * @property {number} passed
 * @property {number} failed
 * @property {number} error
 * @property {number} skipped
 * @property {number} expectedFailure
 * @property {number} failingTests  tests whose last attempt failed or errored (a run's counts only)
 * @property {number} quarantinedFailingTests  of failingTests, those quarantined when that attempt ran: forgiven
 *   (a run's counts only)
 *
 * @typedef {object} RunSummary  GET /api/v1/runs → {runs: RunSummary[], nextCursor?}
 * @property {Run} run
 * @property {RunStatus} status
 * @property {RunStatus} statusWithQuarantine  `passed` for a failed run whose every failing test was quarantined,
 *   else `status` (what `failscope test --quarantine obey` exits by)
 * @property {ResultCounts} counts
 *
 * @typedef {object} ResultSummary  one result in a run or a history; page and call site of its first failure, else of the trail's last step
 * @property {number} id
 * @property {string} runId
 * @property {string} testId
 * @property {string} suite
 * @property {string} name
 * @property {string} [arguments]
 * @property {string} [device]
 * @property {number} attempt
 * @property {TestStatus} status
 * @property {string} [startedAt]
 * @property {number} [duration]  seconds
 * @property {string} [page]
 * @property {SourceLocation} [callSite]  where the test called the page object
 * @property {string} [message]  the first failure's message
 * @property {string} [screenshot]  SHA-256 of the failure screenshot (/artifacts/{sha}.png)
 * @property {boolean} quarantined  a quarantine entry applied to the test when this result ran (a failure is shown
 *   "failed, quarantined")
 *
 * @typedef {object} RunDetail  GET /api/v1/runs/{runId}[?status=failed,error]  with `status`, only the results of those
 *   statuses (the run view asks for the failing ones first); the summary's counts are still the whole run's
 * @property {RunSummary} summary
 * @property {{page?: string, counts: ResultCounts,
 *   callSites: {callSite?: SourceLocation, results: ResultSummary[]}[]}[]} pages
 *   by page (failing pages first, no page last), then call site; a group's counts are its results'
 *
 * @typedef {object} RunComparison  GET /api/v1/runs/{runId}/compare?base=|baseBranch=|baseCommit=
 *   what changed in a run against a base run (default: the newest finished run of `main`, other than the run).
 *   A test is a test id on a device, judged by its last attempt; each list holds that last attempt, in the
 *   run's order (the base's for `fixed` and `removedTests`). Without a base every failure is new.
 * @property {RunSummary} run
 * @property {RunSummary} [base]  absent when the base branch has no finished run
 * @property {ResultSummary[]} newFailures  failed in the run, not quarantined; passed, skipped or absent in the base
 * @property {ResultSummary[]} fixed  failed in the base, passed in the run
 * @property {ResultSummary[]} stillFailing  failed in both, not quarantined in the run
 * @property {ResultSummary[]} quarantined  failed in the run while quarantined (not in newFailures or stillFailing)
 * @property {ResultSummary[]} flaky  passed in the run after a failed attempt
 * @property {ResultSummary[]} newTests  in the run only
 * @property {ResultSummary[]} removedTests  in the base only (results of the base run)
 * @property {{result: ResultSummary, baseDuration: number, duration: number}[]} durationChanges  seconds;
 *   tests that passed in both, largest change first, at most 10, only changes of ≥ 0.1 s and ≥ 20 %
 *
 * @typedef {object} FailureSignature  a failure's message without its variable parts, and where (docs/errors.md)
 * @property {string} id  32 hex digits
 * @property {string} message
 * @property {string} [location]  `File.swift:42`
 *
 * @typedef {'likely_flaky'|'regression'|'new'|'known'} FailureVerdict  docs/flaky.md, "A verdict per failure"
 *
 * @typedef {object} RunErrors  GET /api/v1/runs/{runId}/errors?baseBranch=|baseCommit=
 *   a run's failed and errored results (every attempt, run order) read as problems
 * @property {string} runId
 * @property {string} [baseRunId]  the run regressions are judged against
 * @property {FailureSignature[]} signatures  every signature of the failures, by first appearance
 * @property {string[]} newErrors  ids of signatures no earlier run on the run's branch failed with
 * @property {{result: ResultSummary, signatureId?: string, verdict: FailureVerdict}[]} failures
 * @property {{key: string, resultIds: number[]}[]} bySignature  key: a signature id; groups of ≥ 2, largest first
 * @property {{key: string, resultIds: number[]}[]} byScreenshot  key: a screenshot's SHA-256; likewise
 *
 * @typedef {object} ErrorList  GET /api/v1/errors?project=&branch=&days=&limit=  ranked by tests, runs, failures
 * @property {string} since  ISO 8601, 00:00 UTC of the window's first day
 * @property {{signature: FailureSignature, tests: number, runs: number, failures: number,
 *   firstSeen: {runId: string, commit?: string, at: string}, lastSeen: {runId: string, commit?: string, at: string},
 *   pages: string[], devices: string[]}[]} errors
 *
 * @typedef {object} DurationReport  GET /api/v1/durations?project=&branch=&days=&limit=  (docs/durations.md)
 *   seconds of passing results; p50/p95 by nearest rank, computed by the service
 * @property {string} since  ISO 8601
 * @property {{test: TestHistory["test"], results: number, p50: number, p95: number}[]} slowest  by p95, slowest first
 * @property {{test: TestHistory["test"], previousP50: number, recentP50: number}[]} regressions  p50 of the newest 10
 *   results ≥ 1.2 × and ≥ 0.1 s above the p50 of the 10 before; largest change first
 *
 * @typedef {object} DurationTrend  GET /api/v1/tests/{testId}/durations?branch=&days=
 * @property {TestHistory["test"]} test
 * @property {{day: string, results: number, p50: number, p95: number}[]} days  UTC days with a passing result, oldest first
 *
 * @typedef {object} PageAction  a page object's type name and method: {page: 'CatalogPage', action: 'search(_:)'}
 * @property {string} page
 * @property {string} action
 *
 * @typedef {object} ActionDurationReport  GET /api/v1/durations/actions?project=&branch=&days=&limit=  DurationReport's
 *   shape for page actions: seconds of timed trail steps (failing results and traced runs; the step a failure cut
 *   short left out), `action` for `test`, `steps` for `results` (docs/durations.md)
 * @property {string} since  ISO 8601
 * @property {{action: PageAction, steps: number, p50: number, p95: number}[]} slowest  by p95, slowest first
 * @property {{action: PageAction, previousP50: number, recentP50: number}[]} regressions  p50 of the newest 10 steps
 *   ≥ 1.2 × and ≥ 0.1 s above the p50 of the 10 before; largest change first
 *
 * @typedef {object} ActionDurationTrend  GET /api/v1/durations/actions/trend?project=&page=&action=&branch=&days=
 * @property {PageAction} action
 * @property {{day: string, steps: number, p50: number, p95: number}[]} days  UTC days with a timed step, oldest first
 *
 * @typedef {object} Failure  an assertion failure or a thrown error (isError)
 * @property {string} message
 * @property {SourceLocation} [location]  the failure location: where XCTest recorded the failure
 * @property {string} [page]
 * @property {string} [action]
 * @property {SourceLocation} [callSite]
 * @property {{x: number, y: number, width: number, height: number}} [elementFrame]  points
 * @property {boolean} isError
 *
 * @typedef {object} TrailStep  a page entered (no action) or a page method called; the last three are the action
 *   trace, written for failing tests (docs/trace.md)
 * @property {string} page
 * @property {string} [action]
 * @property {SourceLocation} [callSite]
 * @property {string} [elementTree]  SHA-256 of the step's element_tree artifact (/artifacts/{sha}.json, an ElementTree)
 * @property {{x: number, y: number, width: number, height: number}} [target]  points: the element the action targeted
 * @property {number} [duration]  seconds to the next step
 *
 * @typedef {object} ArtifactLink
 * @property {'screenshot'|'element_tree'} kind
 * @property {string} url
 * @property {boolean} available  false until the artifact is uploaded
 * @property {number} [width]  pixels
 * @property {number} [height]
 *
 * @typedef {object} ResultDetail  GET /api/v1/results/{resultId}
 * @property {ResultSummary} result
 * @property {RunSummary} run
 * @property {string} [skipReason]
 * @property {Failure[]} failures
 * @property {ArtifactLink[]} artifacts
 * @property {TrailStep[]} trail
 * @property {{x: number, y: number, width: number, height: number}} [elementFrame]
 * @property {{resultId: number, runId: string, artifact: ArtifactLink}} [lastPassingScreenshot]
 * @property {{resultId: number, runId: string, device?: string, trail: TrailStep[]}} [passingTrace]  the newest passing
 *   result of the same test whose steps have element trees (same device first), for "What changed"
 * @property {string} [systemOut]
 * @property {string} [systemErr]
 *
 * @typedef {object} TestHistory  GET /api/v1/tests/{testId}/history, newest first
 * @property {{id: string, project: string, suite: string, name: string, arguments?: string}} test
 * @property {{result: ResultSummary, branch?: string, commit?: string, ranAt: string}[]} entries
 * @property {string} [nextCursor]
 *
 * @typedef {{device: string, failureCount: number}} DeviceCount
 *
 * @typedef {object} FlakyPageSummary  GET /api/v1/pages → {since, pages: FlakyPageSummary[]}
 * @property {string} page  or NO_PAGE, then `suite` says whose
 * @property {string} [suite]
 * @property {number} resultCount
 * @property {number} failureCount
 * @property {number} failingTestCount
 * @property {string} [lastFailureAt]
 * @property {number} flakyTestCount
 * @property {number} flakyFailureCount
 * @property {string} [lastFlakyFailureAt]
 * @property {DeviceCount[]} devices  where the flaky failures happened
 *
 * @typedef {{resultId: number, runId: string, ranAt: string, screenshot?: string}} FailureLink  screenshot: /artifacts/{sha}.png
 *
 * @typedef {object} FlakyTest  one test on one branch, flaky by docs/flaky.md
 * @property {string} testId
 * @property {string} project
 * @property {string} suite
 * @property {string} name
 * @property {string} [arguments]
 * @property {string} branch
 * @property {('contradiction'|'flip_rate')[]} reasons
 * @property {number} [flipRate]  flips / (sampleCount − 1); absent with fewer than policy.minimumResults results
 * @property {number} flips
 * @property {number} sampleCount
 * @property {number} passCount
 * @property {number} failCount
 * @property {{commit: string, passes: number, fails: number, seenAt: string}[]} contradictingCommits  the 5 newest
 * @property {number} contradictingCommitCount
 * @property {string} [firstFlakyFailureAt]
 * @property {string} [lastFlakyFailureAt]
 * @property {{file: string, line: number, page: string, totalFailureCount: number, lastFailureAt: string}[]} callSites
 * @property {DeviceCount[]} devices
 * @property {FailureLink} [newestFailure]
 *
 * @typedef {object} BrokenTest  every result on the newest commit failed (at least policy.brokenMinimum)
 * @property {string} testId
 * @property {string} project
 * @property {string} suite
 * @property {string} name
 * @property {string} [arguments]
 * @property {string} branch
 * @property {string} commit
 * @property {number} failCount
 * @property {FailureLink} [newestFailure]
 *
 * @typedef {object} FlakyPolicy
 * @property {number} recentResults
 * @property {number} flipRateThreshold
 * @property {number} minimumResults
 * @property {number} recoveryPasses
 * @property {number} brokenMinimum
 *
 * @typedef {object} QuarantineEntry  GET /api/v1/quarantine?project=&state=active|all → {entries: QuarantineEntry[]},
 *   newest first. Applies to the test's results that ran in createdAt ..< endsAt.
 * @property {number} id
 * @property {string} project
 * @property {string} suite
 * @property {string} name
 * @property {string} [arguments]  absent: any arguments
 * @property {string} [page]  absent: any page
 * @property {string} [device]  absent: any device
 * @property {string} owner
 * @property {string} reason
 * @property {string} expires  the last day it applies, YYYY-MM-DD (UTC)
 * @property {string} createdAt
 * @property {string} [liftedAt]
 * @property {string} endsAt  the start of the day after expires, or liftedAt when earlier
 * @property {'active'|'expired'|'lifted'} state
 * @property {{action: 'added'|'edited'|'lifted', role: 'upload'|'admin', actor: string, why: string, at: string}[]} changes
 *   the audit log, oldest first (actor '' when the request named nobody)
 *
 * @typedef {object} ElementTree  the `element_tree` artifact the reporter uploads with a screenshot (SimulatedUI's
 *   ScreenSnapshot as JSON): {device: {name, width, height, scale}, root: Element}; sizes in points
 * @typedef {object} Element
 * @property {string} elementType
 * @property {string} identifier
 * @property {string} label
 * @property {string} [value]
 * @property {string} [placeholderValue]
 * @property {number[][]} frame  Foundation's CGRect: [[x, y], [width, height]]
 * @property {boolean} isEnabled
 * @property {boolean} hasFocus
 * @property {boolean} isHittable
 * @property {Element[]} children
 *
 * @typedef {object} FlakyReport  GET /api/v1/flaky?page=&suite=&project=&branch=&days=&device=
 * @property {string} since
 * @property {number} days
 * @property {FlakyPolicy} policy
 * @property {FlakyTest[]} flaky
 * @property {BrokenTest[]} broken
 */

/** The page of results without one (unit tests, imported results), as GET /api/v1/pages and /flaky name it. */
export const NO_PAGE = '(no page)';

/** Whether the run's results came from FailscopeReporter (else from an importer: JUnit, xcresult, event stream). */
export const isReporterRun = (run) => run.source === 'reporter';

/** The flaky window in days the API applies when none is asked for (FlakyReport.days). */
export const DEFAULT_DAYS = 14;
