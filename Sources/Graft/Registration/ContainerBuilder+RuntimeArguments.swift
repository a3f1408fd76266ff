// The autowiring overloads here are `@_disfavoredOverload`, so that `{ r, id in try makeReceipt(r, id) }`
// is a closure factory: see the note at the top of ContainerBuilder+Autowiring.swift.

/// Runtime arguments (assisted injection): values a caller passes when resolving, next to the
/// dependencies the graph supplies.
///
/// Only `.transient` registrations take arguments: a shared instance made from one caller's
/// values could not honour the next caller's, so `build()` reports any other lifetime.
///
/// An instance made with arguments is disposed by the scope of its resolve when it is
/// ``Disposable`` or ``AsyncDisposable``, whichever type it was registered as: these
/// registrations ask the instance itself, since a registration with arguments is created far
/// less often than it is described.
extension ContainerBuilder {
    /// Registers an initializer some of whose parameters are runtime arguments: the caller passes
    /// them when resolving, and the graph supplies the rest.
    ///
    /// Each declared argument type takes the first parameter of that type not taken yet, so the
    /// arguments may sit anywhere in the initializer's parameter list.
    ///
    /// ```swift
    /// builder.register(PitStop.self, arguments: Lap.self, using: PitStop.init(lap:crew:tyres:))
    ///
    /// let stop = try container.resolve(PitStop.self, arguments: Lap(12))
    /// // or, in an object that must not see the container: `Factory<PitStop, Lap>`
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type the registration answers for.
    ///   - name: A name to tell several registrations of one type apart.
    ///   - lifetime: `.transient` (the default); any other lifetime is a build problem.
    ///   - first: The type of the first runtime argument.
    ///   - more: The types of the others, in the order callers pass them.
    ///   - fileID: Where the registration is made, for messages; leave the default.
    ///   - line: Where the registration is made, for messages; leave the default.
    ///   - initializer: Makes an instance from the arguments and its dependencies.
    @_disfavoredOverload
    public mutating func register<Service: Sendable, First: Sendable, each More: Sendable, each Parameter: Sendable>(
        _ type: Service.Type,
        name: String? = nil,
        lifetime: Lifetime = .transient,
        arguments first: First.Type,
        _ more: repeat (each More).Type,
        fileID: String = #fileID,
        line: Int = #line,
        using initializer: @escaping @Sendable (repeat each Parameter) throws -> Service
    ) {
        addAutowiredFactory(
            type,
            name,
            lifetime,
            fileID,
            line,
            .askingTheInstance,
            arguments: argumentKeys(first, repeat each more),
            initializer
        )
    }

    /// Registers an `async` initializer some of whose parameters are runtime arguments.
    ///
    /// - Parameters:
    ///   - type: The type the registration answers for.
    ///   - name: A name to tell several registrations of one type apart.
    ///   - lifetime: `.transient` (the default); any other lifetime is a build problem.
    ///   - first: The type of the first runtime argument.
    ///   - more: The types of the others, in the order callers pass them.
    ///   - fileID: Where the registration is made, for messages; leave the default.
    ///   - line: Where the registration is made, for messages; leave the default.
    ///   - initializer: Makes an instance from the arguments and its dependencies, awaiting.
    @_disfavoredOverload
    public mutating func register<Service: Sendable, First: Sendable, each More: Sendable, each Parameter: Sendable>(
        _ type: Service.Type,
        name: String? = nil,
        lifetime: Lifetime = .transient,
        arguments first: First.Type,
        _ more: repeat (each More).Type,
        fileID: String = #fileID,
        line: Int = #line,
        using initializer: @escaping @Sendable (repeat each Parameter) async throws -> Service
    ) {
        addAsyncAutowiredFactory(
            type,
            name,
            lifetime,
            fileID,
            line,
            .askingTheInstance,
            arguments: argumentKeys(first, repeat each more),
            initializer
        )
    }

    /// Registers a closure factory that receives runtime arguments after its resolver.
    ///
    /// ```swift
    /// builder.register(PitStop.self, arguments: Lap.self) { r, lap in
    ///     PitStop(lap: lap, crew: try r.resolve(PitCrew.self), tyres: try r.resolve(Tyres.self))
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type the registration answers for.
    ///   - name: A name to tell several registrations of one type apart.
    ///   - lifetime: `.transient` (the default); any other lifetime is a build problem.
    ///   - first: The type of the first runtime argument.
    ///   - more: The types of the others, in the order callers pass them.
    ///   - dependencies: The services the closure resolves, for `build()` to check.
    ///   - fileID: Where the registration is made, for messages; leave the default.
    ///   - line: Where the registration is made, for messages; leave the default.
    ///   - factory: Makes an instance from a resolver and the arguments.
    public mutating func register<Service: Sendable, First: Sendable, each More: Sendable>(
        _ type: Service.Type,
        name: String? = nil,
        lifetime: Lifetime = .transient,
        arguments first: First.Type,
        _ more: repeat (each More).Type,
        dependencies: [Requirement] = [],
        fileID: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable (any Resolver, First, repeat each More) throws -> Service
    ) {
        addClosureFactory(
            type,
            name,
            lifetime,
            dependencies,
            fileID,
            line,
            arguments: first,
            repeat each more,
            factory: factory
        )
    }

    /// Registers an `async` closure factory that receives runtime arguments after its resolver.
    ///
    /// - Parameters:
    ///   - type: The type the registration answers for.
    ///   - name: A name to tell several registrations of one type apart.
    ///   - lifetime: `.transient` (the default); any other lifetime is a build problem.
    ///   - first: The type of the first runtime argument.
    ///   - more: The types of the others, in the order callers pass them.
    ///   - dependencies: The services the closure resolves, for `build()` to check.
    ///   - fileID: Where the registration is made, for messages; leave the default.
    ///   - line: Where the registration is made, for messages; leave the default.
    ///   - factory: Makes an instance from a resolver and the arguments, awaiting.
    public mutating func register<Service: Sendable, First: Sendable, each More: Sendable>(
        _ type: Service.Type,
        name: String? = nil,
        lifetime: Lifetime = .transient,
        arguments first: First.Type,
        _ more: repeat (each More).Type,
        dependencies: [Requirement] = [],
        fileID: String = #fileID,
        line: Int = #line,
        factory: @escaping @Sendable (any Resolver, First, repeat each More) async throws -> Service
    ) {
        addAsyncClosureFactory(
            type,
            name,
            lifetime,
            dependencies,
            fileID,
            line,
            arguments: first,
            repeat each more,
            factory: factory
        )
    }

    /// The one implementation of the synchronous closure factory with runtime arguments: each
    /// instance is asked whether it is disposable, as the extension's note says.
    private mutating func addClosureFactory<Service: Sendable, First: Sendable, each More: Sendable>(
        _ type: Service.Type,
        _ name: String?,
        _ lifetime: Lifetime,
        _ dependencies: [Requirement],
        _ fileID: String,
        _ line: Int,
        arguments first: First.Type,
        _ more: repeat (each More).Type,
        factory: @escaping @Sendable (any Resolver, First, repeat each More) throws -> Service
    ) {
        let recipe = Recipe(.closure) { construction in
            let resolver = try construction.resolver()
            let service = try factory(
                resolver,
                try construction.nextArgument(First.self),
                repeat try construction.nextArgument((each More).self)
            )
            try construction.deliverAnyDisposable(service)
        }
        addClosure(type, name, lifetime, dependencies, fileID, line, recipe)
        appendArguments(argumentKeys(first, repeat each more))
    }

    /// The one implementation of the `async` closure factory with runtime arguments.
    private mutating func addAsyncClosureFactory<Service: Sendable, First: Sendable, each More: Sendable>(
        _ type: Service.Type,
        _ name: String?,
        _ lifetime: Lifetime,
        _ dependencies: [Requirement],
        _ fileID: String,
        _ line: Int,
        arguments first: First.Type,
        _ more: repeat (each More).Type,
        factory: @escaping @Sendable (any Resolver, First, repeat each More) async throws -> Service
    ) {
        let recipe = Recipe(.asyncClosure) { construction in
            let resolver = try construction.resolver()
            let service = try await factory(
                resolver,
                try construction.nextArgument(First.self),
                repeat try construction.nextArgument((each More).self)
            )
            try construction.deliverAnyDisposable(service)
        }
        addClosure(type, name, lifetime, dependencies, fileID, line, recipe)
        appendArguments(argumentKeys(first, repeat each more))
    }

    private func argumentKeys<First: Sendable, each More: Sendable>(
        _ first: First.Type,
        _ more: repeat (each More).Type
    ) -> [DeclaredDependency] {
        var keys = [DeclaredDependency(parameter: First.self)]
        for argument in repeat (each More).self {
            keys.append(DeclaredDependency(parameter: argument))
        }
        return keys
    }

    /// Marks the latest registration's parameters that the arguments take: each argument type
    /// takes the first parameter of that type not taken yet.
    @usableFromInline
    mutating func markArguments(_ arguments: [DeclaredDependency], fileID: String, line: Int) {
        guard let last = registrations.indices.last else { return }
        var dependencies = registrations[last].dependencies
        for (position, argument) in arguments.enumerated() {
            guard
                let parameter = dependencies.indices.first(where: {
                    !dependencies[$0].isArgument && dependencies[$0].key == argument.key
                })
            else {
                let key = registrations[last].key
                problems.append(
                    GraftError(
                        .runtimeArguments,
                        "\(key.subject) declares runtime argument \(argument.key.typeName), "
                            + "which its initializer does not take",
                        service: key.description,
                        hints: [
                            "declare only the types of the initializer's parameters that callers pass "
                                + "(\(fileID):\(line))"
                        ]
                    )
                )
                continue
            }
            dependencies[parameter] = DeclaredDependency(dependencies[parameter], asArgument: position)
        }
        registrations[last].replaceDependencies(dependencies)
    }

    /// Adds the arguments of a closure factory, which receives them by position, to the latest
    /// registration's declared dependencies, so the graph knows their types.
    private mutating func appendArguments(_ arguments: [DeclaredDependency]) {
        guard let last = registrations.indices.last else { return }
        let marked = arguments.enumerated().map { position, argument in
            DeclaredDependency(argument, asArgument: position)
        }
        registrations[last].replaceDependencies(registrations[last].dependencies + marked)
    }
}
