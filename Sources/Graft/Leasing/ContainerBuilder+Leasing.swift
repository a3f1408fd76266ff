/// Scoped services leased from with-style APIs: a connection that `withConnection` lends only
/// inside its closure, a transaction, an open file.
extension ContainerBuilder {
    /// Registers a scoped service that an API lends only inside a closure, leased on the first
    /// resolve in a scope and returned when that scope closes.
    ///
    /// `lender` receives a resolver and `use`; it calls the with-style API and hands the value it
    /// lends to `use`, whose call lasts as long as the lease:
    ///
    /// ```swift
    /// builder.register(
    ///     PostgresConnection.self, lifetime: .scoped, dependencies: [Requirement(PostgresClient.self)]
    /// ) { r, use in
    ///     try await r.resolve(PostgresClient.self).withConnection { connection in try await use(connection) }
    /// }
    /// ```
    ///
    /// - The first resolve in a scope runs `lender` and returns the value once it is lent; later
    ///   resolves in that scope return the same value. Resolving it needs `await`.
    /// - Closing the scope (`try await scope.close()`, or the request's end in GraftHummingbird
    ///   and GraftVapor) makes `use` return, so the with-style API takes the value back, and waits
    ///   for `lender` to end. The scope's completion step runs before that, so a `Completable`
    ///   service made from the value commits while the lease is held.
    /// - An error `lender` throws before lending is the resolve's error, as a factory's would be
    ///   (a ``GraftError`` with code ``GraftError/Code/factoryFailed`` naming the service); the
    ///   next resolve leases again. An error it throws after lending (while the API takes the
    ///   value back) is a disposal failure of the scope's `close()`.
    /// - A resolve whose task is cancelled while it waits cancels `lender`, waits for it to end
    ///   (returning at once what it lent meanwhile) and throws.
    /// - The lease runs in a task of its own, which the scope's `close()` awaits: none outlives
    ///   the scope that owns it. Close such a scope with `try await close()`.
    ///
    /// Graft never disposes the value itself: the API that lent it takes it back.
    ///
    /// - Parameters:
    ///   - type: The type the registration answers for.
    ///   - name: A name to tell several registrations of one type apart.
    ///   - lifetime: `.scoped`: a lease lasts as long as one scope. Any other lifetime is a
    ///     problem `build()` reports.
    ///   - dependencies: The services `lender` resolves, for `build()` to check.
    ///   - fileID: Where the registration is made, for messages; leave the default.
    ///   - line: Where the registration is made, for messages; leave the default.
    ///   - lender: Calls the with-style API and passes the value it lends to `use`, awaiting it.
    public mutating func register<Service: Sendable>(
        _ type: Service.Type,
        name: String? = nil,
        lifetime: Lifetime,
        dependencies: [Requirement] = [],
        fileID: String = #fileID,
        line: Int = #line,
        leasedFrom lender:
            @escaping @Sendable (
                any Resolver, _ use: @escaping @Sendable (Service) async throws -> Void
            ) async throws -> Void
    ) {
        addLeased(type, name, lifetime, dependencies, fileID, line, lender)
    }

    /// The one implementation of the leased form.
    private mutating func addLeased<Service: Sendable>(
        _ type: Service.Type,
        _ name: String?,
        _ lifetime: Lifetime,
        _ dependencies: [Requirement],
        _ fileID: String,
        _ line: Int,
        _ lender:
            @escaping @Sendable (
                any Resolver, _ use: @escaping @Sendable (Service) async throws -> Void
            ) async throws -> Void
    ) {
        let key = ServiceKey(type, name: name)
        if !lifetime.kind.isKeptPerScope || lifetime.tag != nil {
            problems.append(LeaseErrors.notScoped(key, lifetime, at: "\(fileID):\(line)"))
        }
        let recipe = Recipe(.lease) { construction in
            let lease = Lease<Service>(key)
            let value = try await lease.acquire(construction.resolver(), lender)
            do {
                try construction.adopt(.async(lease))
            } catch {
                // The scope closed meanwhile: nobody owns the lease, so it goes back now.
                try? await lease.dispose()
                throw error
            }
            try construction.deliver(value)
        }
        addClosure(type, name, lifetime, dependencies, fileID, line, recipe)
    }
}
