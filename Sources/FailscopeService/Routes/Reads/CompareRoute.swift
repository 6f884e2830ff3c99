import FailscopeModel
import FailscopeStore
import Foundation
import HTTPRouting

/// `GET /api/v1/runs/{runId}/compare`: what changed in a run against a base run, as `RunComparison`.
///
/// The base is `?base=<runId>`, else the default base (`RunComparison.defaultBase`) among the runs of the run's
/// project on `?baseBranch=<name>` (default `main`), preferring the run of `?baseCommit=<sha>` (a merge base) when
/// there is one. No such run: `base` is absent and every failure is new. The store reads the two runs' results
/// as lean rows and only the listed results in full (`FailscopeStore.runComparison`).
///
/// Errors: 404 `run_not_found` (the run), 404 `base_not_found` (`?base=`), 422 `validation_failed` for a `base`
/// that is the run itself or a run of another project, 400 `invalid_parameter` for `base` together with
/// `baseBranch` or `baseCommit`, or a parameter given twice.
struct CompareRoute: Sendable {
    let store: FailscopeStore

    /// How many of the base branch's newest runs the default base is chosen among (the store's largest page).
    static let candidateLimit = 200

    func compare(_ request: Request) throws -> Response {
        let runID = try request.parameter("runId")
        let baseID = try request.filterValue("base")
        let baseBranch = try request.filterValue("baseBranch")
        let baseCommit = try request.filterValue("baseCommit")
        if baseID != nil && (baseBranch != nil || baseCommit != nil) {
            throw ServiceError.invalidParameter("Give base, or baseBranch and baseCommit, not both.")
        }
        guard let run = try store.runSummary(runID) else {
            throw ServiceError(.notFound, code: "run_not_found", message: "The run does not exist.")
        }
        var base: RunSummary?
        if let baseID {
            guard let summary = try store.runSummary(baseID) else {
                throw ServiceError.notFound("The base run", code: "base_not_found")
            }
            guard summary.run.project == run.run.project, summary.run.id != run.run.id else {
                throw ServiceError(
                    .unprocessableContent, code: "validation_failed",
                    message: "The base must be another run of the run's project.")
            }
            base = summary
        } else {
            base = try Self.defaultBase(of: run, store: store, branch: baseBranch, commit: baseCommit)
        }
        return APIResponse.json(bytes: WireJSONWriter.encode(try store.runComparison(run, base: base)))
    }

    /// The default base of `run` (`RunComparison.defaultBase`) among the newest runs of its project on `branch`
    /// (default `main`), preferring the run of `commit`; `nil` when there is none.
    static func defaultBase(of run: RunSummary, store: FailscopeStore, branch: String?, commit: String?) throws
        -> RunSummary?
    {
        let candidates = try ServiceError.wrapping(fromQuery: true) {
            try store.runs(.init(project: run.run.project, branch: branch ?? "main", limit: candidateLimit))
        }
        return RunComparison.defaultBase(
            of: run.run.id, among: candidates.runs, preferringCommit: commit, device: run.run.device)
    }
}
