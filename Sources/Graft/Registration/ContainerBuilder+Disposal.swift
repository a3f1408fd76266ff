// Each overload is one line: it names how its instance is handed over (`.disposable` or
// `.asyncDisposable`, which only a generic signature that says so can name) and forwards to its
// family's one implementation (ContainerBuilder+Families.swift).
// The autowiring overloads are `@_disfavoredOverload`, as the unconstrained ones: see the note at
// the top of ContainerBuilder+Autowiring.swift.
// swift-format-ignore-file: AmbiguousTrailingClosureOverload

/// Registrations of services whose registered type is ``Disposable`` or ``AsyncDisposable``.
///
/// Swift picks these overloads by itself when the type you register conforms, so disposal is
/// decided from the static type while registering, with no run-time conformance lookup (which
/// would scan every conformance in the program, once per type). Their use is the same as the
/// unconstrained `register` each mirrors.
extension ContainerBuilder {
    /// Registers a closure factory for a service its owner disposes with `try dispose()`.
    ///
    /// - Parameters:
    ///   - type: The type the registration answers for.
    ///   - name: A name to tell several registrations of one type apart.
    ///   - lifetime: How long an instance lives; `.transient` by default.
    ///   - dependencies: The services the closure resolves, for `build()` to check.
    ///   - fileID: Where the registration is made, for messages; leave the default.
    ///   - line: Where the registration is made, for messages; leave the default.
    ///   - factory: Makes an instance.
    public mutating func register<Service: Disposable>(
        _ type: Service.Type,
        name: String? = nil,
        lifetime: Lifetime = .transient,
        dependencies: [Requirement] = [],
        fileID: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable (any Resolver) throws -> Service
    ) {
        addClosureFactory(type, name, lifetime, dependencies, fileID, line, .disposable, factory)
    }

    /// Registers an `async` closure factory for a service its owner disposes with `try dispose()`.
    ///
    /// - Parameters:
    ///   - type: The type the registration answers for.
    ///   - name: A name to tell several registrations of one type apart.
    ///   - lifetime: How long an instance lives; `.transient` by default.
    ///   - dependencies: The services the closure resolves, for `build()` to check.
    ///   - fileID: Where the registration is made, for messages; leave the default.
    ///   - line: Where the registration is made, for messages; leave the default.
    ///   - factory: Makes an instance.
    public mutating func register<Service: Disposable>(
        _ type: Service.Type,
        name: String? = nil,
        lifetime: Lifetime = .transient,
        dependencies: [Requirement] = [],
        fileID: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable (any Resolver) async throws -> Service
    ) {
        addAsyncClosureFactory(type, name, lifetime, dependencies, fileID, line, .disposable, factory)
    }

    /// Registers an initializer whose parameters are its dependencies for a service its owner disposes with `try dispose()`.
    ///
    /// - Parameters:
    ///   - type: The type the registration answers for.
    ///   - name: A name to tell several registrations of one type apart.
    ///   - lifetime: How long an instance lives; `.transient` by default.
    ///   - fileID: Where the registration is made, for messages; leave the default.
    ///   - line: Where the registration is made, for messages; leave the default.
    ///   - initializer: Makes an instance from its dependencies.
    @_disfavoredOverload
    public mutating func register<Service: Disposable, each Parameter: Sendable>(
        _ type: Service.Type,
        name: String? = nil,
        lifetime: Lifetime = .transient,
        fileID: String = #fileID,
        line: Int = #line,
        using initializer: @escaping @Sendable (repeat each Parameter) throws -> Service
    ) {
        addAutowiredFactory(type, name, lifetime, fileID, line, .disposable, initializer)
    }

    /// Registers an `async` initializer whose parameters are its dependencies for a service its owner disposes with `try dispose()`.
    ///
    /// - Parameters:
    ///   - type: The type the registration answers for.
    ///   - name: A name to tell several registrations of one type apart.
    ///   - lifetime: How long an instance lives; `.transient` by default.
    ///   - fileID: Where the registration is made, for messages; leave the default.
    ///   - line: Where the registration is made, for messages; leave the default.
    ///   - initializer: Makes an instance from its dependencies.
    @_disfavoredOverload
    public mutating func register<Service: Disposable, each Parameter: Sendable>(
        _ type: Service.Type,
        name: String? = nil,
        lifetime: Lifetime = .transient,
        fileID: String = #fileID,
        line: Int = #line,
        using initializer: @escaping @Sendable (repeat each Parameter) async throws -> Service
    ) {
        addAsyncAutowiredFactory(type, name, lifetime, fileID, line, .disposable, initializer)
    }

    /// Registers a `@MainActor`-isolated initializer for a service its owner disposes with `try dispose()`.
    ///
    /// - Parameters:
    ///   - type: The type the registration answers for.
    ///   - name: A name to tell several registrations of one type apart.
    ///   - lifetime: How long an instance lives; `.transient` by default.
    ///   - fileID: Where the registration is made, for messages; leave the default.
    ///   - line: Where the registration is made, for messages; leave the default.
    ///   - initializer: Makes an instance from its dependencies.
    @_disfavoredOverload
    public mutating func register<Service: Disposable, each Parameter: Sendable>(
        _ type: Service.Type,
        name: String? = nil,
        lifetime: Lifetime = .transient,
        fileID: String = #fileID,
        line: Int = #line,
        usingMainActor initializer: @escaping @MainActor @Sendable (repeat each Parameter) throws -> Service
    ) {
        addAsyncAutowiredFactory(type, name, lifetime, fileID, line, .disposable, initializer)
    }

    /// Registers a closure factory for a service its owner disposes with `try await dispose()`.
    ///
    /// - Parameters:
    ///   - type: The type the registration answers for.
    ///   - name: A name to tell several registrations of one type apart.
    ///   - lifetime: How long an instance lives; `.transient` by default.
    ///   - dependencies: The services the closure resolves, for `build()` to check.
    ///   - fileID: Where the registration is made, for messages; leave the default.
    ///   - line: Where the registration is made, for messages; leave the default.
    ///   - factory: Makes an instance.
    public mutating func register<Service: AsyncDisposable>(
        _ type: Service.Type,
        name: String? = nil,
        lifetime: Lifetime = .transient,
        dependencies: [Requirement] = [],
        fileID: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable (any Resolver) throws -> Service
    ) {
        addClosureFactory(type, name, lifetime, dependencies, fileID, line, .asyncDisposable, factory)
    }

    /// Registers an `async` closure factory for a service its owner disposes with `try await dispose()`.
    ///
    /// - Parameters:
    ///   - type: The type the registration answers for.
    ///   - name: A name to tell several registrations of one type apart.
    ///   - lifetime: How long an instance lives; `.transient` by default.
    ///   - dependencies: The services the closure resolves, for `build()` to check.
    ///   - fileID: Where the registration is made, for messages; leave the default.
    ///   - line: Where the registration is made, for messages; leave the default.
    ///   - factory: Makes an instance.
    public mutating func register<Service: AsyncDisposable>(
        _ type: Service.Type,
        name: String? = nil,
        lifetime: Lifetime = .transient,
        dependencies: [Requirement] = [],
        fileID: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable (any Resolver) async throws -> Service
    ) {
        addAsyncClosureFactory(type, name, lifetime, dependencies, fileID, line, .asyncDisposable, factory)
    }

    /// Registers an initializer whose parameters are its dependencies for a service its owner disposes with `try await dispose()`.
    ///
    /// - Parameters:
    ///   - type: The type the registration answers for.
    ///   - name: A name to tell several registrations of one type apart.
    ///   - lifetime: How long an instance lives; `.transient` by default.
    ///   - fileID: Where the registration is made, for messages; leave the default.
    ///   - line: Where the registration is made, for messages; leave the default.
    ///   - initializer: Makes an instance from its dependencies.
    @_disfavoredOverload
    public mutating func register<Service: AsyncDisposable, each Parameter: Sendable>(
        _ type: Service.Type,
        name: String? = nil,
        lifetime: Lifetime = .transient,
        fileID: String = #fileID,
        line: Int = #line,
        using initializer: @escaping @Sendable (repeat each Parameter) throws -> Service
    ) {
        addAutowiredFactory(type, name, lifetime, fileID, line, .asyncDisposable, initializer)
    }

    /// Registers an `async` initializer whose parameters are its dependencies for a service its owner disposes with `try await dispose()`.
    ///
    /// - Parameters:
    ///   - type: The type the registration answers for.
    ///   - name: A name to tell several registrations of one type apart.
    ///   - lifetime: How long an instance lives; `.transient` by default.
    ///   - fileID: Where the registration is made, for messages; leave the default.
    ///   - line: Where the registration is made, for messages; leave the default.
    ///   - initializer: Makes an instance from its dependencies.
    @_disfavoredOverload
    public mutating func register<Service: AsyncDisposable, each Parameter: Sendable>(
        _ type: Service.Type,
        name: String? = nil,
        lifetime: Lifetime = .transient,
        fileID: String = #fileID,
        line: Int = #line,
        using initializer: @escaping @Sendable (repeat each Parameter) async throws -> Service
    ) {
        addAsyncAutowiredFactory(type, name, lifetime, fileID, line, .asyncDisposable, initializer)
    }

    /// Registers a `@MainActor`-isolated initializer for a service its owner disposes with `try await dispose()`.
    ///
    /// - Parameters:
    ///   - type: The type the registration answers for.
    ///   - name: A name to tell several registrations of one type apart.
    ///   - lifetime: How long an instance lives; `.transient` by default.
    ///   - fileID: Where the registration is made, for messages; leave the default.
    ///   - line: Where the registration is made, for messages; leave the default.
    ///   - initializer: Makes an instance from its dependencies.
    @_disfavoredOverload
    public mutating func register<Service: AsyncDisposable, each Parameter: Sendable>(
        _ type: Service.Type,
        name: String? = nil,
        lifetime: Lifetime = .transient,
        fileID: String = #fileID,
        line: Int = #line,
        usingMainActor initializer: @escaping @MainActor @Sendable (repeat each Parameter) throws -> Service
    ) {
        addAsyncAutowiredFactory(type, name, lifetime, fileID, line, .asyncDisposable, initializer)
    }

}
