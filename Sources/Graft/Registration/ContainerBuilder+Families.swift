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
    /// The closure family's common case, a plain service: the user's closure is kept as it is
    /// (see `Recipe.closure(_:registeredAs:)`), with no ``Delivery`` to build or ask; a start-up
    /// of 30,000 registrations, generic at run time, paid 49 instructions a registration for one.
    @inlinable
    mutating func addClosureFactory<Service: Sendable>(
        _ type: Service.Type,
        _ name: String?,
        _ lifetime: Lifetime,
        _ dependencies: [Requirement],
        _ fileID: String,
        _ line: Int,
        _ factory: @escaping @Sendable (any Resolver) throws -> Service
    ) {
        guard !isExistentialType(Service.self) else {
            addClosureFactory(type, name, lifetime, dependencies, fileID, line, .askingTheInstance, factory)
            return
        }
        addClosure(type, name, lifetime, dependencies, fileID, line, .closure(factory, registeredAs: type))
    }

    /// The closure family for a service whose instances are disposed.
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
        // One closure per delivery, chosen here: a delivery switched over at each creation, in
        // code generic at run time, cost every creation about 60 instructions.
        let recipe: Recipe =
            switch delivery.forRegisteredType {
            case .plain:
                .closure(factory, registeredAs: type)
            case .askingTheInstance:
                Recipe(.closure) { construction in
                    try construction.deliverAnyDisposable(try factory(construction.resolver()))
                }
            case .disposing(let deliver):
                Recipe(.closure) { construction in try deliver(&construction, try factory(construction.resolver())) }
            }
        addClosure(type, name, lifetime, dependencies, fileID, line, recipe)
    }

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
        // One closure per delivery, as in `addClosureFactory`.
        let recipe: Recipe =
            switch delivery.forRegisteredType {
            case .plain:
                Recipe(.asyncClosure) { construction in
                    try construction.deliver(try await factory(construction.resolver()))
                }
            case .askingTheInstance:
                Recipe(.asyncClosure) { construction in
                    try construction.deliverAnyDisposable(try await factory(construction.resolver()))
                }
            case .disposing(let deliver):
                Recipe(.asyncClosure) { construction in
                    try deliver(&construction, try await factory(construction.resolver()))
                }
            }
        addClosure(type, name, lifetime, dependencies, fileID, line, recipe)
    }

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
        // One closure per delivery, chosen here: a delivery switched over at each creation, in
        // code generic at run time, cost every autowired creation about 60 instructions.
        let recipe: Recipe =
            switch delivery.forRegisteredType {
            case .plain:
                Recipe(.autowired) { construction in
                    try construction.deliver(try initializer(repeat construction.next((each Parameter).self)))
                }
            case .askingTheInstance:
                Recipe(.autowired) { construction in
                    let service = try initializer(repeat construction.next((each Parameter).self))
                    try construction.deliverAnyDisposable(service)
                }
            case .disposing(let deliver):
                Recipe(.autowired) { construction in
                    try deliver(&construction, try initializer(repeat construction.next((each Parameter).self)))
                }
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
        // One closure per delivery, as in `addAutowiredFactory`.
        let recipe: Recipe =
            switch delivery.forRegisteredType {
            case .plain:
                Recipe(.asyncAutowired) { construction in
                    try construction.deliver(try await initializer(repeat construction.next((each Parameter).self)))
                }
            case .askingTheInstance:
                Recipe(.asyncAutowired) { construction in
                    let service = try await initializer(repeat construction.next((each Parameter).self))
                    try construction.deliverAnyDisposable(service)
                }
            case .disposing(let deliver):
                Recipe(.asyncAutowired) { construction in
                    try deliver(&construction, try await initializer(repeat construction.next((each Parameter).self)))
                }
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
