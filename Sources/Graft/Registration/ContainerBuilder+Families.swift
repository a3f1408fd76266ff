/// The one implementation of each family of `register` overloads.
///
/// A family's overloads (for a plain, a ``Disposable`` and an ``AsyncDisposable`` service) differ
/// only in their generic signature, which decides how the instance is handed over: each is one
/// line that names its ``Delivery`` and forwards here, so a family's recipe is written once. The
/// forms with runtime arguments and the leased form have one overload each; their
/// implementations sit beside their helpers (`ContainerBuilder+RuntimeArguments.swift`,
/// `Leasing/ContainerBuilder+Leasing.swift`).
///
/// These are `@inlinable` because the overloads most registrations use are: where the service
/// type is concrete, the compiler specializes the whole registration in the app's code.
extension ContainerBuilder {
    /// A synchronous closure factory.
    @inlinable
    mutating func addClosureFactory<Service: Sendable>(
        _ type: Service.Type,
        _ name: String?,
        _ lifetime: Lifetime,
        _ dependencies: [Requirement],
        _ fileID: String,
        _ line: Int,
        _ delivery: Delivery<Service>,
        _ factory: @escaping @Sendable (any Resolver) throws -> Service
    ) {
        let delivery = delivery.forRegisteredType
        guard case .plain = delivery else {
            let recipe = Recipe(.closure) { construction in
                let service = try factory(construction.resolver())
                try delivery.deliver(service, to: &construction)
            }
            addClosure(type, name, lifetime, dependencies, fileID, line, recipe)
            return
        }
        // The common case keeps the user's closure as it is where `Service` is generic at run
        // time, with no closure around it (see `Recipe.closure(_:registeredAs:)`).
        addClosure(type, name, lifetime, dependencies, fileID, line, .closure(factory, registeredAs: type))
    }

    /// An `async` closure factory.
    @inlinable
    mutating func addAsyncClosureFactory<Service: Sendable>(
        _ type: Service.Type,
        _ name: String?,
        _ lifetime: Lifetime,
        _ dependencies: [Requirement],
        _ fileID: String,
        _ line: Int,
        _ delivery: Delivery<Service>,
        _ factory: @escaping @Sendable (any Resolver) async throws -> Service
    ) {
        let delivery = delivery.forRegisteredType
        let recipe = Recipe(.asyncClosure) { construction in
            let service = try await factory(construction.resolver())
            try delivery.deliver(service, to: &construction)
        }
        addClosure(type, name, lifetime, dependencies, fileID, line, recipe)
    }

    /// An initializer whose parameters are the dependencies; `arguments`, when there are any,
    /// are the runtime arguments among them (see `ContainerBuilder+RuntimeArguments.swift`).
    @inlinable
    mutating func addAutowiredFactory<Service: Sendable, each Parameter: Sendable>(
        _ type: Service.Type,
        _ name: String?,
        _ lifetime: Lifetime,
        _ fileID: String,
        _ line: Int,
        _ delivery: Delivery<Service>,
        arguments: [DeclaredDependency] = [],
        _ initializer: @escaping @Sendable (repeat each Parameter) throws -> Service
    ) {
        let delivery = delivery.forRegisteredType
        let recipe = Recipe(.autowired) { construction in
            let service = try initializer(repeat construction.next((each Parameter).self))
            try delivery.deliver(service, to: &construction)
        }
        addAutowired(type, name, lifetime, fileID, line, recipe, repeat (each Parameter).self)
        if !arguments.isEmpty { markArguments(arguments, fileID: fileID, line: line) }
    }

    /// An `async` initializer whose parameters are the dependencies (a `@MainActor` one too: it
    /// is awaited on the main actor); `arguments` as for ``addAutowiredFactory(_:_:_:_:_:_:arguments:_:)``.
    @inlinable
    mutating func addAsyncAutowiredFactory<Service: Sendable, each Parameter: Sendable>(
        _ type: Service.Type,
        _ name: String?,
        _ lifetime: Lifetime,
        _ fileID: String,
        _ line: Int,
        _ delivery: Delivery<Service>,
        arguments: [DeclaredDependency] = [],
        _ initializer: @escaping @Sendable (repeat each Parameter) async throws -> Service
    ) {
        let delivery = delivery.forRegisteredType
        let recipe = Recipe(.asyncAutowired) { construction in
            let service = try await initializer(repeat construction.next((each Parameter).self))
            try delivery.deliver(service, to: &construction)
        }
        addAutowired(type, name, lifetime, fileID, line, recipe, repeat (each Parameter).self)
        if !arguments.isEmpty { markArguments(arguments, fileID: fileID, line: line) }
    }

    /// An object that already exists: handed out as it is and never disposed.
    mutating func addInstance<Service: Sendable>(
        _ type: Service.Type,
        _ name: String?,
        _ fileID: String,
        _ line: Int,
        _ instance: Service
    ) {
        let recipe = Recipe(.instance) { construction in try construction.deliver(instance) }
        add(type, name: name, lifetime: .singleton, recipe: recipe, fileID: fileID, line: line)
    }
}
