public import Graft
public import ServiceLifecycle

/// A ``Graft/Container`` as a `Service` in a `ServiceGroup`: on graceful shutdown it drains,
/// then disposes everything the container created.
///
/// When the group shuts down gracefully (SIGTERM, say), the service calls
/// ``Graft/Container/shutdown(gracePeriod:)``: the container makes no new scope, the scopes
/// already open (requests in flight) go on until they close, or until `gracePeriod` ends, and
/// then every scope left and every singleton is disposed, newest first. When the group cancels
/// the service instead, the container shuts down at once.
///
/// ```swift
/// let container = try await builder.build()
/// let group = ServiceGroup(
///     services: [ContainerService(container), app],
///     gracefulShutdownSignals: [.sigterm, .sigint],
///     logger: logger
/// )
/// try await group.run()
/// ```
///
/// ## The order of services does not matter
///
/// A `ServiceGroup` shuts its services down in the reverse of the order they are listed, one
/// after the other. Listing the container first (as above) shuts it down last: by then the
/// server has answered every request, no scope is open, and the container disposes at once.
/// Listed after the server, the container is told first, while requests are still running; it
/// drains instead of closing their scopes under them, so each request finishes with its scoped
/// services intact and their disposals run before any singleton is disposed. Requests that
/// arrive while it drains get no scope; the Hummingbird integration answers them
/// `503 Service Unavailable`. Either order shuts down cleanly; listing the container first
/// keeps the server answering normally until it stops.
public struct ContainerService: Service, CustomStringConvertible {
    /// The container the service shuts down.
    public let container: Container
    /// How long open scopes may go on once graceful shutdown has begun.
    public let gracePeriod: Duration

    /// A service that shuts `container` down when its service group ends.
    ///
    /// - Parameters:
    ///   - container: The container to drain and shut down.
    ///   - gracePeriod: How long open scopes may go on once graceful shutdown has begun; then
    ///     they are closed for them. Ten seconds unless given.
    public init(_ container: Container, gracePeriod: Duration = .seconds(10)) {
        self.container = container
        self.gracePeriod = gracePeriod
    }

    /// Waits for graceful shutdown (or cancellation), then drains and shuts the container down.
    ///
    /// - Throws: ``Graft/GraftError`` listing every `dispose()` that threw.
    public func run() async throws {
        // Cancellation ends the wait too: `shutdown(gracePeriod:)` then sees a cancelled task and
        // closes what is open at once.
        try? await gracefulShutdown()
        try await container.shutdown(gracePeriod: gracePeriod)
    }

    /// How the service appears in `ServiceGroup`'s logs.
    public var description: String { "Graft.Container (grace period \(gracePeriod))" }
}
