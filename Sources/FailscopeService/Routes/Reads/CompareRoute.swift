import FailscopeModel
import FailscopeStore
import Foundation
import HTTPRouting

/// `GET /api/v1/runs/{runId}/compare`: what changed in a run against a base run, as `RunComparison`.
///
/// The base is `?base=<runId>`, else the default base (`RunComparison.defaultBase`) among the runs of the run's
/// project on `?baseBranch=<name>` (default `main`), preferring the run of `?baseCommit=<sha>` (a merge base) when
/// there is one. No such run: `base` is absent and every failure is new.
///
/// Errors: 404 `run_not_found` (the run), 404 `base_not_found` (`?base=`), 400 `invalid_parameter` for `base`
/// together with `baseBranch` or `baseCommit`, or a parameter given twice.
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
        guard let run = try store.runDetail(runID) else {
            throw ServiceError(.notFound, code: "run_not_found", message: "The run does not exist.")
        }
        var base: RunDetail?
        if let baseID {
            guard let detail = try store.runDetail(baseID) else {
                throw ServiceError.notFound("The base run", code: "base_not_found")
            }
            base = detail
        } else {
            let candidates = try ServiceError.wrapping(fromQuery: true) {
                try store.runs(
                    .init(project: run.summary.run.project, branch: baseBranch ?? "main", limit: Self.candidateLimit))
            }
            if let chosen = RunComparison.defaultBase(
                of: runID, among: candidates.runs, preferringCommit: baseCommit, device: run.summary.run.device)
            {
                base = try store.runDetail(chosen.run.id)
            }
        }
        return try APIResponse.json(RunComparison(run: run, base: base))
    }
}
