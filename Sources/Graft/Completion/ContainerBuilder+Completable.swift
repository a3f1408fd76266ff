/// The `register` overloads for a ``Completable`` service: those of an ``AsyncDisposable`` one,
/// plus the completion step its type implies, so that its work is committed with no second line.
///
/// Chosen by the compiler over the `AsyncDisposable` overloads (`Completable` refines it), so a
/// registration decides from the registered type's static conformances, and no registration or
/// creation pays a run-time conformance lookup.
extension ContainerBuilder {
    /// Registers a closure factory for a service that completes in its scope's completion step.
    ///
    /// ```swift
    /// builder.register(UnitOfWork.self, lifetime: .scoped) { r in UnitOfWork(pool: try r.resolve(Pool.self)) }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type the registration answers for.
    ///   - name: A name to tell several registrations of one type apart.
    ///   - lifetime: How long an instance lives; `.transient` by default.
    ///   - dependencies: The services the closure resolves, for `build()` to check.
    ///   - fileID: Where the registration is made, for messages; leave the default.
    ///   - line: Where the registration is made, for messages; leave the default.
    ///   - factory: Makes an instance.
    public mutating func register<Service: Completable>(
        _ type: Service.Type,
        name: String? = nil,
        lifetime: Lifetime = .transient,
        dependencies: [Requirement] = [],
        fileID: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable (any Resolver) throws -> Service
    ) {
        addClosureFactory(type, name, lifetime, dependencies, fileID, line, .asyncDisposable, factory)
        addImpliedCompletion(type, name, fileID, line)
    }

    /// Registers an `async` closure factory for a service that completes in its scope's
    /// completion step.
    ///
    /// - Parameters:
    ///   - type: The type the registration answers for.
    ///   - name: A name to tell several registrations of one type apart.
    ///   - lifetime: How long an instance lives; `.transient` by default.
    ///   - dependencies: The services the closure resolves, for `build()` to check.
    ///   - fileID: Where the registration is made, for messages; leave the default.
    ///   - line: Where the registration is made, for messages; leave the default.
    ///   - factory: Makes an instance, awaiting what it needs.
    public mutating func register<Service: Completable>(
        _ type: Service.Type,
        name: String? = nil,
        lifetime: Lifetime = .transient,
        dependencies: [Requirement] = [],
        fileID: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable (any Resolver) async throws -> Service
    ) {
        addAsyncClosureFactory(type, name, lifetime, dependencies, fileID, line, .asyncDisposable, factory)
        addImpliedCompletion(type, name, fileID, line)
    }

    /// Registers an initializer whose parameters are its dependencies, for a service that
    /// completes in its scope's completion step.
    ///
    /// ```swift
    /// builder.register(UnitOfWork.self, lifetime: .scoped, using: UnitOfWork.init(pool:))
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type the registration answers for.
    ///   - name: A name to tell several registrations of one type apart.
    ///   - lifetime: How long an instance lives; `.transient` by default.
    ///   - fileID: Where the registration is made, for messages; leave the default.
    ///   - line: Where the registration is made, for messages; leave the default.
    ///   - initializer: Makes an instance from its dependencies.
    @_disfavoredOverload
    public mutating func register<Service: Completable, each Parameter: Sendable>(
        _ type: Service.Type,
        name: String? = nil,
        lifetime: Lifetime = .transient,
        fileID: String = #fileID,
        line: Int = #line,
        using initializer: @escaping @Sendable (repeat each Parameter) throws -> Service
    ) {
        addAutowiredFactory(type, name, lifetime, fileID, line, .asyncDisposable, initializer)
        addImpliedCompletion(type, name, fileID, line)
    }

    /// Registers an `async` initializer whose parameters are its dependencies, for a service that
    /// completes in its scope's completion step.
    ///
    /// - Parameters:
    ///   - type: The type the registration answers for.
    ///   - name: A name to tell several registrations of one type apart.
    ///   - lifetime: How long an instance lives; `.transient` by default.
    ///   - fileID: Where the registration is made, for messages; leave the default.
    ///   - line: Where the registration is made, for messages; leave the default.
    ///   - initializer: Makes an instance from its dependencies.
    @_disfavoredOverload
    public mutating func register<Service: Completable, each Parameter: Sendable>(
        _ type: Service.Type,
        name: String? = nil,
        lifetime: Lifetime = .transient,
        fileID: String = #fileID,
        line: Int = #line,
        using initializer: @escaping @Sendable (repeat each Parameter) async throws -> Service
    ) {
        addAsyncAutowiredFactory(type, name, lifetime, fileID, line, .asyncDisposable, initializer)
        addImpliedCompletion(type, name, fileID, line)
    }

    /// Registers a `@MainActor`-isolated initializer for a service that completes in its scope's
    /// completion step.
    ///
    /// - Parameters:
    ///   - type: The type the registration answers for.
    ///   - name: A name to tell several registrations of one type apart.
    ///   - lifetime: How long an instance lives; `.transient` by default.
    ///   - fileID: Where the registration is made, for messages; leave the default.
    ///   - line: Where the registration is made, for messages; leave the default.
    ///   - initializer: Makes an instance from its dependencies.
    @_disfavoredOverload
    public mutating func register<Service: Completable, each Parameter: Sendable>(
        _ type: Service.Type,
        name: String? = nil,
        lifetime: Lifetime = .transient,
        fileID: String = #fileID,
        line: Int = #line,
        usingMainActor initializer: @escaping @MainActor @Sendable (repeat each Parameter) throws -> Service
    ) {
        addAsyncAutowiredFactory(type, name, lifetime, fileID, line, .asyncDisposable, initializer)
        addImpliedCompletion(type, name, fileID, line)
    }

    /// The completion step a ``Completable`` registration implies: its instances' `complete()`.
    /// An `onComplete` for the same registration replaces it.
    mutating func addImpliedCompletion<Service: Completable>(
        _ type: Service.Type,
        _ name: String?,
        _ fileID: String,
        _ line: Int
    ) {
        var step = CompletionStep.completing(Service.self, addedAt: "\(fileID):\(line)")
        step.isImplied = true
        addHook(
            to: ServiceKey(type, name: name),
            "register",
            "completion step",
            fileID,
            line,
            Activation(completion: step)
        )
    }
}
