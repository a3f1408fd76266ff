/// Whether a request failed: a scoped service reads it while its scope closes, to roll back.
///
/// It is the state of the scope it is resolved from, so nobody registers it: depend on it (or
/// resolve it) in the request's scope. The web framework integrations (GraftHummingbird,
/// GraftVapor) fail the scope, through ``RequestScopeLease/fail()``, when the handler throws, when
/// the completion step fails, when the response body cannot be written or when the request's
/// deadline passes, before they close it; an async `withScope` whose body throws fails its scope
/// too. So a service disposed with the scope knows how the request ended.
///
/// ```swift
/// builder.register(UnitOfWork.self, lifetime: .scoped, using: UnitOfWork.init(pool:outcome:))
///
/// // in UnitOfWork.dispose():
/// if outcome.failed { try await connection.query("ROLLBACK") }
/// ```
///
/// Commit in the scope's completion step (``Completable``), not in `dispose()`: disposal runs after
/// the response has been sent, too late to tell the client that the commit failed.
///
/// A singleton that depends on it is a captive dependency, which `build()` reports, and
/// resolving it from the root container throws: the root is no request.
public struct RequestOutcome: Sendable {
    /// Held weakly: the scope keeps the services that hold this, which must not keep the scope.
    private weak let scope: Scope?

    init(of scope: Scope) {
        self.scope = scope
    }

    /// Whether the request failed: the handler threw, the completion step failed, the response
    /// could not be written or the deadline passed.
    ///
    /// Read it in `dispose()`: by then a failed request has set it. Once the scope is gone it
    /// reads `false`.
    public var failed: Bool { scope?.hasFailed ?? false }

    /// Marks the request failed: its completion step will not run, and services disposed with
    /// its scope read ``failed`` as `true`.
    ///
    /// The integrations call it through ``RequestScopeLease/fail()``; so may a handler that
    /// answers with an error status without throwing:
    ///
    /// ```swift
    /// try await context.resolve(RequestOutcome.self).markFailed()
    /// return .conflict
    /// ```
    public func markFailed() { scope?.markFailed() }
}

/// A dependency on the outcome links to a scoped registration that linking adds: the captive
/// check sees it as the scoped service it is, and each request's scope makes its own.
extension RequestOutcome: AdaptedDependency {
    static var itemType: ObjectIdentifier { ObjectIdentifier(RequestOutcome.self) }

    static var adapterNote: String { "request outcome" }

    static func adapter(among registrations: [Registration], source: SourceLocation) -> Registration {
        Registration(adapter: RequestOutcome.self, lifetime: .scoped, dependencies: [], source: source) {
            construction throws(GraftError) in
            RequestOutcome(of: construction.resolvingScope)
        }
    }
}

/// `scope.resolve(RequestOutcome.self)` where no registration asks for it, so linking added no
/// registration: the outcome of the scope resolved from.
extension RequestOutcome: GatheredCollection {
    static func gather(from core: ContainerCore, _ state: inout ResolveState) throws(GraftError) -> any Sendable {
        try outcome(of: state.scope)
    }

    static func gatherAsync(
        from core: ContainerCore,
        _ state: inout ResolveState
    ) async throws(GraftError) -> any Sendable {
        try outcome(of: state.scope)
    }

    private static func outcome(of scope: Scope) throws(GraftError) -> RequestOutcome {
        guard !scope.isRoot else {
            throw GraftError(
                .scopedFromRoot,
                "RequestOutcome was resolved from the root container, which is no request",
                service: "RequestOutcome",
                path: ["RequestOutcome"],
                hints: [
                    "resolve it from the request's scope: try await context.resolve(RequestOutcome.self) with "
                        + "GraftHummingbird, try await req.resolve(RequestOutcome.self) with GraftVapor"
                ]
            )
        }
        return RequestOutcome(of: scope)
    }
}
