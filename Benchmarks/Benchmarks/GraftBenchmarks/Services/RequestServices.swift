// The services of one server request (scenario 5): a context that lives as long as the
// request's scope, and a transient handler that uses it.

/// Request-scoped: one per scope, shared by everything resolved in that scope.
final class RequestContext: Sendable {
    let settings: AppSettings
    init(settings: AppSettings) { self.settings = settings }
}

/// Transient: made anew for every resolve, holding the scope's context.
final class RequestHandler: Sendable {
    let context: RequestContext
    init(context: RequestContext) { self.context = context }
}
