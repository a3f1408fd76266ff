/// How a web framework integration opens each request's scope: from one container, given the
/// request's values when the container declares them, refused while the container shuts down.
///
/// GraftHummingbird's and GraftVapor's middleware each keep one, made when the middleware is
/// made, and call ``open(providing:_:reporter:)`` for each request; what they do with the
/// ``RequestScopeLease`` it returns (complete, then close exactly once) is the same in both.
/// Write your own integration the same way:
///
/// ```swift
/// let scopes = RequestScopes(container, values: MyRequestID.self)
/// // for each request:
/// let lease = try scopes.open(providing: MyRequestID(id), logger) { logger.error("\($0)") }
/// ```
public struct RequestScopes: Sendable {
    /// The container each request's scope is made from.
    public let container: Container
    /// The scope each request's scope is made under (a session's or a tenant's); `nil` for the
    /// root container.
    public let parent: Scope?
    /// Whether the container declares the request's values, asked once, when this is made.
    private let givesValues: Bool

    /// Opens request scopes from `container`, giving each the request's values when the
    /// container declares `marker`, the first of them, as a scope value.
    ///
    /// A container that does not declare them has no service that needs them (`build()` would
    /// have reported it), so its requests get plain scopes.
    ///
    /// - Parameters:
    ///   - container: The container each request's scope is made from.
    ///   - marker: The type of the first value ``open(providing:_:reporter:)`` is given.
    public init<Marker: Sendable>(_ container: Container, values marker: Marker.Type) {
        self.container = container
        self.parent = nil
        self.givesValues = container.declaresScopeValue(marker)
    }

    /// Opens request scopes under `parent`, a session's or a tenant's scope of `container`: each
    /// request sees the instances `parent` shares and the values it was given, and closes before
    /// it.
    ///
    /// - Parameters:
    ///   - container: The container `parent` was made from.
    ///   - parent: The scope each request's scope is made under.
    ///   - marker: The type of the first value ``open(providing:_:reporter:)`` is given.
    public init<Marker: Sendable>(_ container: Container, under parent: Scope, values marker: Marker.Type) {
        self.container = container
        self.parent = parent
        self.givesValues = container.declaresScopeValue(marker)
    }

    /// Opens one request's scope, given `first` and `more` when the container declares them.
    ///
    /// - Parameters:
    ///   - first: The first of the request's values (of the type given to the initializer).
    ///   - more: The request's other values.
    ///   - reporter: Told of what cannot be thrown to anyone: disposals that fail when the scope
    ///     closes after its response was sent. Log it.
    /// - Returns: The request's lease on its scope.
    /// - Throws: ``GraftError`` with code ``GraftError/Code/closed`` while the container shuts
    ///   down (answer `503 Service Unavailable`), or the error of a request value the container
    ///   does not declare.
    public func open<First: Sendable, each More: Sendable>(
        providing first: First,
        _ more: repeat each More,
        reporter: @escaping @Sendable (GraftError) -> Void
    ) throws(GraftError) -> RequestScopeLease {
        let scope: Scope
        do {
            scope =
                switch (parent, givesValues) {
                case (let parent?, true): try parent.makeScope(providing: first, repeat each more)
                case (let parent?, false): parent.makeScope()
                case (nil, true): try container.makeScope(providing: first, repeat each more)
                case (nil, false): container.makeScope()
                }
        } catch  where error.code == .closed {
            throw Self.shuttingDown
        }
        // A plain scope made while the container drains is born closed instead of throwing.
        guard !scope.isClosed else { throw Self.shuttingDown }
        return RequestScopeLease(scope, reporter: reporter)
    }

    private static let shuttingDown = GraftError(
        .closed,
        "cannot open a request's scope: the container is shutting down",
        hints: ["answer 503 Service Unavailable; the requests already in flight finish first"]
    )
}
