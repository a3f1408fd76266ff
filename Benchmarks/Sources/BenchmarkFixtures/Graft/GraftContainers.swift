public import GeneratedServices
public import Graft

/// The Graft containers the benchmarks resolve from. Services with dependencies are autowired
/// from their initializers, the way ARCHITECTURE.md recommends: `build()` then links each
/// dependency ahead of time. `makeClosureGraph` registers the same diamond through closures
/// that resolve by type, to show what those links save.
public enum GraftContainers {
    /// Scenarios 1, 2, 3, 5 and 7: settings a singleton, the request context scoped,
    /// everything else transient.
    ///
    /// - Parameter observers: What observes the container (none unless measuring observation).
    public static func makeTransientGraph(observers: [any ContainerObserver] = []) throws -> Container {
        var builder = ContainerBuilder()
        for observer in observers { builder.addObserver(observer) }
        builder.register(AppSettings.self, lifetime: .singleton) { _ in AppSettings() }
        builder.register(Leaf.self) { _ in Leaf() }
        registerDiamond(in: &builder, dLifetime: .transient)
        builder.register(RequestContext.self, lifetime: .scoped, using: RequestContext.init(settings:))
        builder.register(RequestHandler.self, using: RequestHandler.init(context:))
        return try builder.build()
    }

    /// Scenario 4: the same diamond with D a singleton.
    public static func makeGraphWithSingletonLeaf(observers: [any ContainerObserver] = []) throws -> Container {
        var builder = ContainerBuilder()
        for observer in observers { builder.addObserver(observer) }
        registerDiamond(in: &builder, dLifetime: .singleton)
        return try builder.build()
    }

    /// Scenario 3 again, every factory a closure that resolves its dependencies by type.
    public static func makeClosureGraph() throws -> Container {
        var builder = ContainerBuilder()
        builder.register(D.self) { _ in D() }
        builder.register(B.self) { r in B(d: try r.resolve(D.self)) }
        builder.register(C.self) { r in C(d: try r.resolve(D.self)) }
        builder.register(A.self) { r in A(b: try r.resolve(B.self), c: try r.resolve(C.self)) }
        return try builder.build()
    }

    /// Scenario 6: one registration per generated type, opened from the existential.
    public static func register<Service: GeneratedService>(_ type: Service.Type, in builder: inout ContainerBuilder) {
        builder.register(Service.self) { _ in Service() }
    }

    private static func registerDiamond(in builder: inout ContainerBuilder, dLifetime: Lifetime) {
        builder.register(D.self, lifetime: dLifetime) { _ in D() }
        builder.register(B.self, using: B.init(d:))
        builder.register(C.self, using: C.init(d:))
        builder.register(A.self, using: A.init(b:c:))
    }
}
