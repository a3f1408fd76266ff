/// Start hooks, stop hooks and services that run: what a container does when it starts and when
/// it shuts down.
extension ContainerBuilder {
    /// Runs `hook` on the service's instance when the container starts, after the start hooks of
    /// everything the service depends on.
    ///
    /// Only a `.singleton` or `.eagerSingleton` can have one: a hook runs once per container.
    /// ``Container/start(timeout:)`` makes the instance if nothing has yet. If `hook` throws, the
    /// services already started are stopped, newest first, and `start()` throws.
    ///
    /// ```swift
    /// builder.register(Database.self, lifetime: .singleton) { _ in Database() }
    /// builder.onStart(Database.self) { database in try await database.migrate() }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The registered service.
    ///   - name: The registration's name, for a named one.
    ///   - fileID: Where the hook is added, for messages; leave the default.
    ///   - line: Where the hook is added, for messages; leave the default.
    ///   - hook: Starts the instance.
    public mutating func onStart<Service: Sendable>(
        _ type: Service.Type,
        name: String? = nil,
        fileID: String = #fileID,
        line: Int = #line,
        _ hook: @escaping @Sendable (Service) async throws -> Void
    ) {
        lifecycleHooks.append(LifecycleHook(.start, type, name: name, fileID: fileID, line: line, body: hook))
    }

    /// Runs `hook` on the service's instance when the container shuts down, before anything is
    /// disposed and before what the service depends on stops.
    ///
    /// Stop hooks run in the reverse of the order services started. A service with a start hook
    /// (or a `run()`) is stopped only if it started; one without is stopped if its instance was
    /// made. A stop hook that throws does not keep the others, or disposal, from running.
    ///
    /// ```swift
    /// builder.onStop(Consumer.self) { consumer in await consumer.finishCurrentMessage() }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The registered service; a `.singleton` or `.eagerSingleton`.
    ///   - name: The registration's name, for a named one.
    ///   - fileID: Where the hook is added, for messages; leave the default.
    ///   - line: Where the hook is added, for messages; leave the default.
    ///   - hook: Stops the instance.
    public mutating func onStop<Service: Sendable>(
        _ type: Service.Type,
        name: String? = nil,
        fileID: String = #fileID,
        line: Int = #line,
        _ hook: @escaping @Sendable (Service) async throws -> Void
    ) {
        lifecycleHooks.append(LifecycleHook(.stop, type, name: name, fileID: fileID, line: line, body: hook))
    }

    /// Says that the service runs for the container's life: `run` is called when the container
    /// starts and cancelled when it shuts down.
    ///
    /// For a client whose `run()` must be running while it is used (postgres-nio's
    /// `PostgresClient`), a queue consumer, or any `run() async throws` service. The run begins
    /// once everything the service depends on has started, and is cancelled at shutdown before
    /// what it depends on stops. If `run` throws, or returns before shutdown, the container shuts
    /// down and the error names the service.
    ///
    /// ```swift
    /// builder.register(PostgresClient.self, lifetime: .singleton) { _ in PostgresClient(configuration: settings) }
    /// builder.runs(PostgresClient.self) { client in await client.run() }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The registered service; a `.singleton` or `.eagerSingleton`.
    ///   - name: The registration's name, for a named one.
    ///   - fileID: Where the service is declared running, for messages; leave the default.
    ///   - line: Where the service is declared running, for messages; leave the default.
    ///   - run: Runs the service until the task running it is cancelled.
    public mutating func runs<Service: Sendable>(
        _ type: Service.Type,
        name: String? = nil,
        fileID: String = #fileID,
        line: Int = #line,
        _ run: @escaping @Sendable (Service) async throws -> Void
    ) {
        lifecycleHooks.append(LifecycleHook(.run, type, name: name, fileID: fileID, line: line, body: run))
    }
}
