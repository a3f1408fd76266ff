/// Registering services shared within a tagged scope: `lifetime: .scoped(in: Session.self)`.
///
/// Each overload registers the service as `.scoped` with its tag: the registration is what a
/// `.scoped` one is (its checks, its graph node, its observers' events), and resolving it finds
/// the nearest enclosing scope with the tag instead of the scope resolved from.
///
/// Whether an instance is ``Disposable`` or ``AsyncDisposable`` is asked of each new instance,
/// as for a protocol-typed registration (`ContainerBuilder+ProtocolDisposal.swift`), rather than
/// decided by a mirror of every overload for each conformance: a tagged instance is made once
/// per tagged scope, and the runtime caches the conformance lookup per type.
extension ContainerBuilder {
    /// Registers a closure factory whose instance is shared within the nearest enclosing scope
    /// tagged `lifetime`'s tag.
    ///
    /// ```swift
    /// builder.register(Cart.self, lifetime: .scoped(in: Session.self)) { _ in Cart() }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type the registration answers for; often a protocol.
    ///   - name: A name to tell several registrations of one type apart.
    ///   - lifetime: `.scoped(in: Tag.self)`.
    ///   - dependencies: The services the closure resolves, for `build()` to check.
    ///   - fileID: Where the registration is made, for messages; leave the default.
    ///   - line: Where the registration is made, for messages; leave the default.
    ///   - factory: Makes an instance.
    public mutating func register<Service: Sendable>(
        _ type: Service.Type,
        name: String? = nil,
        lifetime: TaggedLifetime,
        dependencies: [Requirement] = [],
        fileID: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable (any Resolver) throws -> Service
    ) {
        tagging(lifetime) { builder in
            builder.addExistential(type, name, .scoped, dependencies, fileID, line, factory: factory)
        }
    }

    /// Registers an `async` closure factory whose instance is shared within the nearest
    /// enclosing scope tagged `lifetime`'s tag.
    ///
    /// - Parameters:
    ///   - type: The type the registration answers for.
    ///   - name: A name to tell several registrations of one type apart.
    ///   - lifetime: `.scoped(in: Tag.self)`.
    ///   - fileID: Where the registration is made, for messages; leave the default.
    ///   - line: Where the registration is made, for messages; leave the default.
    ///   - factory: Makes an instance, awaiting what it needs.
    public mutating func register<Service: Sendable>(
        _ type: Service.Type,
        name: String? = nil,
        lifetime: TaggedLifetime,
        fileID: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable (any Resolver) async throws -> Service
    ) {
        tagging(lifetime) { builder in
            builder.addExistential(type, name, .scoped, fileID, line, factory: factory)
        }
    }

    /// Registers an initializer whose instance is shared within the nearest enclosing scope
    /// tagged `lifetime`'s tag.
    ///
    /// ```swift
    /// builder.register(Cart.self, lifetime: .scoped(in: Session.self), using: Cart.init(store:))
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type the registration answers for.
    ///   - name: A name to tell several registrations of one type apart.
    ///   - lifetime: `.scoped(in: Tag.self)`.
    ///   - fileID: Where the registration is made, for messages; leave the default.
    ///   - line: Where the registration is made, for messages; leave the default.
    ///   - initializer: Makes an instance from its dependencies, each resolved by its type.
    @_disfavoredOverload
    public mutating func register<Service: Sendable, each Parameter: Sendable>(
        _ type: Service.Type,
        name: String? = nil,
        lifetime: TaggedLifetime,
        fileID: String = #fileID,
        line: Int = #line,
        using initializer: @escaping @Sendable (repeat each Parameter) throws -> Service
    ) {
        tagging(lifetime) { builder in
            builder.addExistential(type, name, .scoped, fileID, line, initializer: initializer)
        }
    }

    /// Registers an `async` initializer whose instance is shared within the nearest enclosing
    /// scope tagged `lifetime`'s tag.
    ///
    /// - Parameters:
    ///   - type: The type the registration answers for.
    ///   - name: A name to tell several registrations of one type apart.
    ///   - lifetime: `.scoped(in: Tag.self)`.
    ///   - fileID: Where the registration is made, for messages; leave the default.
    ///   - line: Where the registration is made, for messages; leave the default.
    ///   - initializer: Makes an instance from its dependencies, awaiting what it needs.
    @_disfavoredOverload
    public mutating func register<Service: Sendable, each Parameter: Sendable>(
        _ type: Service.Type,
        name: String? = nil,
        lifetime: TaggedLifetime,
        fileID: String = #fileID,
        line: Int = #line,
        using initializer: @escaping @Sendable (repeat each Parameter) async throws -> Service
    ) {
        tagging(lifetime) { builder in
            builder.addExistential(type, name, .scoped, fileID, line, initializer: initializer)
        }
    }

    /// Runs `register`, tagging what it adds with `lifetime`'s tag.
    private mutating func tagging(_ lifetime: TaggedLifetime, _ register: (inout ContainerBuilder) -> Void) {
        addingScopeTag = lifetime.tag
        defer { addingScopeTag = nil }
        register(&self)
    }
}
