// The services of one server request (scenario 5): a context that lives as long as the
// request's scope, and a transient handler that uses it. `@inlinable` for the reason
// GraphServices.swift gives.

/// Request-scoped: one per scope, shared by everything resolved in that scope.
public final class RequestContext: Sendable {
    public let settings: AppSettings

    @inlinable
    public init(settings: AppSettings) { self.settings = settings }
}

/// Transient: made anew for every resolve, holding the scope's context.
public final class RequestHandler: Sendable {
    public let context: RequestContext

    @inlinable
    public init(context: RequestContext) { self.context = context }
}
