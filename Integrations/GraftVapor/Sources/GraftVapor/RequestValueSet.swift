@_spi(Integrations) import Graft
import Vapor

/// Which of the request's values the container declares, asked once: each scope GraftVapor opens
/// (a request's, a WebSocket session's, a message's) is given those.
struct RequestValueSet: Sendable {
    /// Whether the container declares ``RequestID`` (and with it the request's `Logger`).
    let givesValues: Bool
    /// Whether it declares the request's event loop too (``Graft/ContainerBuilder/registerRequestValues(fileID:line:)``
    /// does; a container that declared the id and logger by hand may not).
    let givesEventLoop: Bool

    init(_ container: Container) {
        givesValues = container.declaresScopeValue(RequestID.self)
        givesEventLoop = givesValues && container.declaresScopeValue((any EventLoop).self)
    }

    /// Opens one request's scope from `scopes`, given the values the container declares.
    func open(
        _ scopes: RequestScopes,
        _ id: RequestID,
        _ logger: Logger,
        _ eventLoop: any EventLoop
    ) throws(GraftError) -> RequestScopeLease {
        let reporter: @Sendable (GraftError) -> Void = { logger.error("\(ErrorReport.describe($0))") }
        if givesEventLoop {
            return try scopes.open(providing: id, logger, eventLoop, reporter: reporter)
        }
        return try scopes.open(providing: id, logger, reporter: reporter)
    }

    /// A new scope of `container` tagged `tag`, given the values the container declares.
    func makeScope<Tag: ScopeTag>(
        _ container: Container,
        tagged tag: Tag.Type,
        _ id: RequestID,
        _ logger: Logger,
        _ eventLoop: any EventLoop
    ) throws(GraftError) -> Scope {
        switch (givesValues, givesEventLoop) {
        case (true, true): try container.makeScope(tagged: tag, providing: id, logger, eventLoop)
        case (true, false): try container.makeScope(tagged: tag, providing: id, logger)
        case (false, _): container.makeScope(tagged: tag)
        }
    }
}
