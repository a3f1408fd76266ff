/// Hints for a synchronous call that failed for want of `await`, right for where it runs.
///
/// Swift picks between a synchronous and an `async` overload by context: in an async function
/// `try await x.resolve(...)` picks the async one, but in top-level code (`main.swift`) Swift
/// picks the synchronous overload even after `await` (Swift 6.3). So a synchronous call that
/// runs inside a task may be one the user wrote with `await`; the hint must say how to reach
/// the async overload there, not repeat what they wrote. Outside a task there is no `await` to
/// add, and the plain hint is right.
enum OverloadHints {
    /// Whether the caller runs inside a task (an async function, or top-level code that awaits).
    static var runsInTask: Bool { CurrentTask.exists }

    /// The line for top-level code, where `await` alone does not pick the async overload.
    static let topLevel =
        "in top-level code (main.swift) Swift picks the synchronous overload even after `await`: "
        + "move the code into an async function or an `@main` type's `static func main() async`"

    /// `outsideTask` outside a task; inside one, what to write in an async function and in
    /// top-level code.
    ///
    /// - Parameters:
    ///   - call: The synchronous call that ran, as the user wrote it (`resolve`, `build()`).
    ///   - asyncSpelling: What reaches the async overload in an async function.
    ///   - outsideTask: The hints for a caller outside any task.
    static func forWantOfAwait(call: String, asyncSpelling: String, outsideTask: [String]) -> [String] {
        guard runsInTask else { return outsideTask }
        return [
            "this runs inside a task, but Swift picked the synchronous \(call)",
            "in an async function, write `\(asyncSpelling)` (a synchronous function or closure must become async first)",
            topLevel,
        ]
    }
}

/// Which synchronous call closed a scope without awaiting its async disposals: the fix differs.
enum SynchronousClose {
    case scope, container, withScope

    /// The hints for `key`, an `AsyncDisposable` that a synchronous close could not dispose.
    func hints(for key: ServiceKey) -> [String] {
        switch self {
        case .scope:
            return OverloadHints.forWantOfAwait(
                call: "close()",
                asyncSpelling: "try await scope.close()",
                outsideTask: ["close it from async code with `try await scope.close()`"]
            )
        case .container:
            return OverloadHints.forWantOfAwait(
                call: "shutdown()",
                asyncSpelling: "try await container.shutdown()",
                outsideTask: ["shut down from async code with `try await container.shutdown()`"]
            )
        case .withScope:
            // The async withScope is picked only for a body that awaits, also in top-level code;
            // `try await container.withScope { ... }` with no `await` inside still picks this one.
            return [
                "the synchronous withScope ran because its body has no `await`; the async withScope, "
                    + "which awaits async disposals, runs for a body that awaits, e.g. "
                    + "`try await container.withScope { scope in try await scope.resolve(\(key.typeName).self) }`"
            ]
        }
    }
}

/// The needs-await error of a deferred dependency (`Lazy`, `Provider`) read synchronously: the
/// fix is the deferred value's own async accessor, not a `resolve` the user never wrote.
enum DeferredReadHints {
    /// `error` with hints that name `asyncSpelling` when it says that `key` itself needs `await`;
    /// any other error unchanged (a dependency that a synchronous factory could not await says
    /// what to change in that factory).
    ///
    /// - Parameters:
    ///   - error: What the synchronous read threw.
    ///   - key: The service behind the deferred dependency.
    ///   - wrapper: The deferred dependency's type, as the user wrote it (`Lazy<Pool>`).
    ///   - asyncSpelling: The async read, as it compiles (`try await lazy.get()`).
    static func rewording(
        _ error: GraftError,
        of key: ServiceKey,
        wrapper: String,
        asyncSpelling: String
    ) -> GraftError {
        guard error.code == .needsAwait, error.service == key.description else { return error }
        return GraftError(
            .needsAwait,
            error.summary,
            service: error.service,
            path: error.path,
            hints: OverloadHints.forWantOfAwait(
                call: "get()",
                asyncSpelling: asyncSpelling,
                outsideTask: ["read \(wrapper) with `\(asyncSpelling)` from async code"]
            )
        )
    }
}
