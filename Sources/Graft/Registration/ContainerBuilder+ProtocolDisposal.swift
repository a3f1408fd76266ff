/// Registrations whose registered type is a protocol or another existential (`any ConnectionPool`):
/// the type cannot tell whether an instance is disposable, so each new instance is asked.
///
/// A concrete registered type decides while registering, from its static conformances (the
/// overloads in `ContainerBuilder+Disposal.swift`), and pays nothing when it creates. An
/// existential type sends the unconstrained `register` here instead: its recipe checks the
/// instance's dynamic type (`as? any Disposable`, then `as? any AsyncDisposable`) as it hands
/// the instance over, and an instance that is either is disposed by its owner exactly as a
/// concretely registered one. The Swift runtime caches each conformance it looks up, so the
/// lookup that scans the program's conformances happens once per implementation type; an
/// instance that is neither is recorded nowhere.
extension ContainerBuilder {
    /// The closure factory for an existential `Service`.
    @usableFromInline
    mutating func addExistential<Service: Sendable>(
        _ type: Service.Type,
        _ name: String?,
        _ lifetime: Lifetime,
        _ dependencies: [Requirement],
        _ fileID: String,
        _ line: Int,
        factory: @escaping @Sendable (any Resolver) throws -> Service
    ) {
        let recipe = Recipe(.closure) { construction in
            let service = try factory(construction.resolver())
            try construction.deliverAnyDisposable(service)
        }
        addClosure(type, name, lifetime, dependencies, fileID, line, recipe)
    }

    /// The `async` closure factory for an existential `Service`.
    @usableFromInline
    mutating func addExistential<Service: Sendable>(
        _ type: Service.Type,
        _ name: String?,
        _ lifetime: Lifetime,
        _ fileID: String,
        _ line: Int,
        factory: @escaping @Sendable (any Resolver) async throws -> Service
    ) {
        let recipe = Recipe(.asyncClosure) { construction in
            let service = try await factory(construction.resolver())
            try construction.deliverAnyDisposable(service)
        }
        addClosure(type, name, lifetime, [], fileID, line, recipe)
    }

    /// The autowired initializer for an existential `Service`.
    @usableFromInline
    mutating func addExistential<Service: Sendable, each Parameter: Sendable>(
        _ type: Service.Type,
        _ name: String?,
        _ lifetime: Lifetime,
        _ fileID: String,
        _ line: Int,
        initializer: @escaping @Sendable (repeat each Parameter) throws -> Service
    ) {
        let recipe = Recipe(.autowired) { construction in
            let service = try initializer(repeat construction.next((each Parameter).self))
            try construction.deliverAnyDisposable(service)
        }
        addAutowired(type, name, lifetime, fileID, line, recipe, repeat (each Parameter).self)
    }

    /// The `async` autowired initializer for an existential `Service`.
    @usableFromInline
    mutating func addExistential<Service: Sendable, each Parameter: Sendable>(
        _ type: Service.Type,
        _ name: String?,
        _ lifetime: Lifetime,
        _ fileID: String,
        _ line: Int,
        initializer: @escaping @Sendable (repeat each Parameter) async throws -> Service
    ) {
        let recipe = Recipe(.asyncAutowired) { construction in
            let service = try await initializer(repeat construction.next((each Parameter).self))
            try construction.deliverAnyDisposable(service)
        }
        addAutowired(type, name, lifetime, fileID, line, recipe, repeat (each Parameter).self)
    }

    /// The `@MainActor` initializer for an existential `Service`.
    @usableFromInline
    mutating func addExistential<Service: Sendable, each Parameter: Sendable>(
        _ type: Service.Type,
        _ name: String?,
        _ lifetime: Lifetime,
        _ fileID: String,
        _ line: Int,
        mainActorInitializer initializer: @escaping @MainActor @Sendable (repeat each Parameter) throws -> Service
    ) {
        let recipe = Recipe(.asyncAutowired) { construction in
            let service = try await initializer(repeat construction.next((each Parameter).self))
            try construction.deliverAnyDisposable(service)
        }
        addAutowired(type, name, lifetime, fileID, line, recipe, repeat (each Parameter).self)
    }
}
