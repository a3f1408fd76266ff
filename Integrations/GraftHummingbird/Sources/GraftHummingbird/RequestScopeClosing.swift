import Graft
public import HummingbirdCore
import Synchronization

extension HTTPServerBuilder {
    /// An HTTP/1.1 server, as Hummingbird's `.http1(configuration:)`, that closes each request's
    /// scope itself once the response has been written, so ``RequestScopeMiddleware`` can send
    /// a body whose length is known as the handler made it.
    ///
    /// Hummingbird sends a buffer body (a string, a JSON value, any `ByteBuffer`) in one write.
    /// To close the request's scope after the body, the middleware on a plain server wraps every
    /// body in a closure, which Hummingbird writes in three parts (head, body, end): on a route
    /// that does little, that costs more than the scope. On this server the middleware hands a
    /// known-length response's lease to the server, which closes the scope when the response has
    /// been written (or marks the request failed first, when writing it failed). What the
    /// middleware documents stays as it is: the completion step still runs before the response is
    /// returned, and the scope still closes after the body's last byte.
    ///
    /// ```swift
    /// let app = Application(
    ///     router: router,
    ///     server: .http1ClosingRequestScopes(),
    ///     configuration: .init(address: .hostname("127.0.0.1", port: 8080))
    /// )
    /// ```
    ///
    /// For another kind of channel, wrap its responder with
    /// ``RequestScopeClosing/afterWriting(_:)``.
    ///
    /// - Parameter configuration: The HTTP/1.1 channel's configuration.
    /// - Returns: A server builder for `Application`'s `server:` argument.
    public static func http1ClosingRequestScopes(
        configuration: HTTP1Channel.Configuration = .init()
    ) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            HTTP1Channel(responder: RequestScopeClosing.afterWriting(responder), configuration: configuration)
        }
    }
}

/// Closes the scope of each request that ``RequestScopeMiddleware`` opened once the server has
/// written its response, without wrapping the response's body.
///
/// ``HummingbirdCore/HTTPServerBuilder/http1ClosingRequestScopes(configuration:)`` uses it; use it
/// to build any other channel the same way:
///
/// ```swift
/// let server = HTTPServerBuilder { responder in
///     MyChannel(responder: RequestScopeClosing.afterWriting(responder))
/// }
/// ```
public enum RequestScopeClosing {
    /// A responder that runs `responder` (which answers one request and writes its response),
    /// then closes the request's scope.
    ///
    /// When `responder` throws (writing the response failed: the client went away), the
    /// request's `RequestOutcome` reads failed before the scope closes, and the error is
    /// thrown on.
    ///
    /// - Parameter responder: The server's responder for one request.
    /// - Returns: The same responder, closing the scope that the middleware handed over.
    public static func afterWriting(
        _ responder: @escaping HTTPChannelHandler.Responder
    ) -> HTTPChannelHandler.Responder {
        { request, writer, channel in
            let pending = PendingScopeClose()
            // The writer cannot be copied and the responder consumes it, while a closure only
            // borrows what it captures: it is moved out of an optional the closure can change.
            var writer = Optional(writer)
            do {
                try await PendingScopeClose.$current.withValue(pending) {
                    guard let writer = writer.take() else { return }
                    try await responder(request, writer, channel)
                }
            } catch {
                await pending.take()?.fail()
                throw error
            }
            await pending.take()?.close()
        }
    }
}

/// The lease of the request being answered, handed by the middleware to the server that closes
/// it once the response has been written.
///
/// One per request, made by ``RequestScopeClosing/afterWriting(_:)`` and found by the
/// middleware through ``current``. Behind a mutex, not a plain field: the value is task-local,
/// so a child task of the request could reach it as well.
final class PendingScopeClose: Sendable {
    /// The pending close of the request this task answers; `nil` on a server that does not
    /// close scopes after writing.
    @TaskLocal static var current: PendingScopeClose?

    private enum State {
        case waiting
        case holding(RequestScopeLease)
        case taken
    }

    private let state = Mutex(State.waiting)

    /// Takes charge of closing `lease`; `false` when a lease was handed over already (a second
    /// middleware on the same request) or the server is past closing, and the caller closes it.
    func hand(_ lease: RequestScopeLease) -> Bool {
        state.withLock { state in
            guard case .waiting = state else { return false }
            state = .holding(lease)
            return true
        }
    }

    /// The lease handed over, if any; after this, nothing more is accepted.
    func take() -> RequestScopeLease? {
        state.withLock { state in
            defer { state = .taken }
            guard case .holding(let lease) = state else { return nil }
            return lease
        }
    }
}
