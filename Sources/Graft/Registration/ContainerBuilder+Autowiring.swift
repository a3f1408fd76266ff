// Every autowiring overload (here, in ContainerBuilder+Disposal.swift and in
// ContainerBuilder+RuntimeArguments.swift) is `@_disfavoredOverload`. A trailing closure whose
// first parameter is the resolver (`{ r in try makeGarage(r) }`, `{ r, id in ... }`) fits both a
// closure factory and an "initializer" taking `any Resolver`. Without the attribute Swift ranks
// the autowiring overload first (the closure factory's defaulted `dependencies:` parameter makes
// it the less specific candidate) or calls the two ambiguous (with runtime arguments: two
// parameter packs, neither more specific). Overload ranking cannot fix the second case without
// one overload per arity, and a `Resolver` parameter detected at registration would turn a
// closure factory into an autowired registration that build() cannot see into. Disfavoring
// decides only between calls that are both valid, so an explicit `using:` label, or a closure
// whose first parameter is not the resolver, still autowires. The attribute is underscored, but
// the standard library and SwiftUI use it in public API; ClosureFactoryFormTests compiles each
// form and fails if a compiler ever ranks them differently.

/// Autowiring: the dependencies come from an initializer's parameter types.
///
/// Parameter packs let one method take an initializer of any arity, so `build()` knows every
/// dependency without calling anything. `Lazy<T>`, `Provider<T>` and `T?` parameters work
/// without registrations of their own.
///
/// A trailing closure whose first parameter is the resolver is always a closure factory, however
/// its body is written: `builder.register(Garage.self) { r in try makeGarage(r) }` registers a
/// closure factory. An initializer that takes a ``Resolver`` cannot be autowired; `build()`
/// reports it and says to register it with a closure factory instead.
extension ContainerBuilder {
    /// Registers an initializer, or any function, whose parameters are the service's dependencies.
    ///
    /// ```swift
    /// builder.register(RaceCar.self, using: RaceCar.init(engine:transmission:wheels:))
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type the registration answers for.
    ///   - name: A name to tell several registrations of one type apart.
    ///   - lifetime: How long an instance lives; `.transient` by default.
    ///   - fileID: Where the registration is made, for messages; leave the default.
    ///   - line: Where the registration is made, for messages; leave the default.
    ///   - initializer: Makes an instance from its dependencies, each resolved by its type.
    @inlinable
    @_disfavoredOverload
    public mutating func register<Service: Sendable, each Parameter: Sendable>(
        _ type: Service.Type,
        name: String? = nil,
        lifetime: Lifetime = .transient,
        fileID: String = #fileID,
        line: Int = #line,
        using initializer: @escaping @Sendable (repeat each Parameter) throws -> Service
    ) {
        addAutowiredFactory(type, name, lifetime, fileID, line, .plain, initializer)
    }

    /// Registers an `async` initializer or function whose parameters are the service's dependencies.
    ///
    /// ```swift
    /// builder.register(ConnectionPool.self, lifetime: .singleton, using: ConnectionPool.init(settings:))
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type the registration answers for.
    ///   - name: A name to tell several registrations of one type apart.
    ///   - lifetime: How long an instance lives; `.transient` by default.
    ///   - fileID: Where the registration is made, for messages; leave the default.
    ///   - line: Where the registration is made, for messages; leave the default.
    ///   - initializer: Makes an instance from its dependencies, awaiting what it needs.
    @_disfavoredOverload
    public mutating func register<Service: Sendable, each Parameter: Sendable>(
        _ type: Service.Type,
        name: String? = nil,
        lifetime: Lifetime = .transient,
        fileID: String = #fileID,
        line: Int = #line,
        using initializer: @escaping @Sendable (repeat each Parameter) async throws -> Service
    ) {
        addAsyncAutowiredFactory(type, name, lifetime, fileID, line, .plain, initializer)
    }

    /// Registers a `@MainActor`-isolated initializer: a view model, a UI controller.
    ///
    /// The instance is created on the main actor, so resolve it with `await` (from any context;
    /// from main-actor code the hop is free).
    ///
    /// ```swift
    /// builder.register(LapViewModel.self, usingMainActor: LapViewModel.init(timer:))
    /// let model = try await container.resolve(LapViewModel.self)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type the registration answers for.
    ///   - name: A name to tell several registrations of one type apart.
    ///   - lifetime: How long an instance lives; `.transient` by default.
    ///   - fileID: Where the registration is made, for messages; leave the default.
    ///   - line: Where the registration is made, for messages; leave the default.
    ///   - initializer: Makes an instance on the main actor from its dependencies.
    @_disfavoredOverload
    public mutating func register<Service: Sendable, each Parameter: Sendable>(
        _ type: Service.Type,
        name: String? = nil,
        lifetime: Lifetime = .transient,
        fileID: String = #fileID,
        line: Int = #line,
        usingMainActor initializer: @escaping @MainActor @Sendable (repeat each Parameter) throws -> Service
    ) {
        addAsyncAutowiredFactory(type, name, lifetime, fileID, line, .plain, initializer)
    }

    /// Adds an autowired registration, with one dependency per parameter type, in order.
    ///
    /// The pack is walked as types, not as a tuple of metatype values: a tuple of metatypes would
    /// look up the run-time metadata of each metatype, once per parameter of every registration.
    @usableFromInline
    mutating func addAutowired<Service: Sendable, each Parameter: Sendable>(
        _ type: Service.Type,
        _ name: String?,
        _ lifetime: Lifetime,
        _ fileID: String,
        _ line: Int,
        _ recipe: Recipe,
        _ parameters: repeat (each Parameter).Type
    ) {
        var count = 0
        for _ in repeat (each Parameter).self { count += 1 }
        var dependencies: [DeclaredDependency] = []
        dependencies.reserveCapacity(count)
        for parameter in repeat (each Parameter).self {
            dependencies.append(DeclaredDependency(parameter: parameter))
        }
        add(
            type,
            name: name,
            lifetime: lifetime,
            recipe: recipe,
            dependencies: dependencies,
            fileID: fileID,
            line: line
        )
    }
}
