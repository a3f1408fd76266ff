/// Registrations whose registered type is a protocol or another existential (`any ConnectionPool`):
/// the type cannot tell whether an instance is disposable, so each new instance is asked.
///
/// A concrete registered type decides while registering, from its static conformances (the
/// overloads in `ContainerBuilder+Disposal.swift`), and pays nothing when it creates. An
/// existential type cannot: the unconstrained `register` hands it ``Delivery/plain``, which
/// ``Delivery/forRegisteredType`` turns into ``Delivery/askingTheInstance`` for it. That recipe
/// checks the instance's dynamic type (`as? any Disposable`, then `as? any AsyncDisposable`) as
/// it hands the instance over, and an instance that is either is disposed by its owner exactly as
/// a concretely registered one. The Swift runtime caches each conformance it looks up, so the
/// lookup that scans the program's conformances happens once per implementation type; an
/// instance that is neither is recorded nowhere.
///
/// The forms below ask whatever the type: the tagged `.scoped(in:)` overloads
/// (`ContainerBuilder+TaggedScopes.swift`) register through them.
extension ContainerBuilder {
    /// The closure factory, asking each instance.
    mutating func addExistential<Service: Sendable>(
        _ type: Service.Type,
        _ name: String?,
        _ lifetime: Lifetime,
        _ dependencies: [Requirement],
        _ fileID: String,
        _ line: Int,
        factory: @escaping @Sendable (any Resolver) throws -> Service
    ) {
        addClosureFactory(type, name, lifetime, dependencies, fileID, line, .askingTheInstance, factory)
    }

    /// The `async` closure factory, asking each instance.
    mutating func addExistential<Service: Sendable>(
        _ type: Service.Type,
        _ name: String?,
        _ lifetime: Lifetime,
        _ fileID: String,
        _ line: Int,
        factory: @escaping @Sendable (any Resolver) async throws -> Service
    ) {
        addAsyncClosureFactory(type, name, lifetime, [], fileID, line, .askingTheInstance, factory)
    }

    /// The autowired initializer, asking each instance.
    mutating func addExistential<Service: Sendable, each Parameter: Sendable>(
        _ type: Service.Type,
        _ name: String?,
        _ lifetime: Lifetime,
        _ fileID: String,
        _ line: Int,
        initializer: @escaping @Sendable (repeat each Parameter) throws -> Service
    ) {
        addAutowiredFactory(type, name, lifetime, fileID, line, .askingTheInstance, initializer)
    }

    /// The `async` autowired initializer, asking each instance.
    mutating func addExistential<Service: Sendable, each Parameter: Sendable>(
        _ type: Service.Type,
        _ name: String?,
        _ lifetime: Lifetime,
        _ fileID: String,
        _ line: Int,
        initializer: @escaping @Sendable (repeat each Parameter) async throws -> Service
    ) {
        addAsyncAutowiredFactory(type, name, lifetime, fileID, line, .askingTheInstance, initializer)
    }
}
