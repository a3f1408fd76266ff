public import Graft
public import ServiceLifecycle

extension ContainerBuilder {
    /// Says that a registered swift-service-lifecycle `Service` runs for the container's life:
    /// its `run()` begins when the container starts, after what it depends on, and is cancelled
    /// at shutdown, before what it depends on stops.
    ///
    /// ```swift
    /// builder.register(PostgresClient.self, lifetime: .singleton) { _ in PostgresClient(configuration: settings) }
    /// builder.runs(PostgresClient.self)
    /// ```
    ///
    /// ``ContainerService`` starts the container inside the `ServiceGroup`, so the service is not
    /// listed in the group as well. If its `run()` throws, or returns while the container runs,
    /// the container shuts down and `ContainerService` throws an error naming it. A `run()` that
    /// returns because the group is shutting down gracefully (as `PostgresClient`'s does) has
    /// ended as it should: the container is shutting down too, and stops the rest in order.
    ///
    /// - Parameters:
    ///   - type: The registered service; a `.singleton` or `.eagerSingleton`.
    ///   - name: The registration's name, for a named one.
    ///   - fileID: Where the service is declared running, for messages; leave the default.
    ///   - line: Where the service is declared running, for messages; leave the default.
    public mutating func runs<RunningService: Service>(
        _ type: RunningService.Type,
        name: String? = nil,
        fileID: String = #fileID,
        line: Int = #line
    ) {
        runs(type, name: name, fileID: fileID, line: line) { service in
            try await service.run()
            // The service heeded the group's graceful shutdown, which reaches it through the
            // container's task, before the container's own shutdown cancels it: it waits here for
            // that cancellation instead of ending early, which the container would report.
            if Task.isShuttingDownGracefully { await untilCancelled() }
        }
    }
}

/// Returns once the current task is cancelled.
private func untilCancelled() async {
    let (never, keepOpen) = AsyncStream<Void>.makeStream()
    for await _ in never {}
    keepOpen.finish()
}
