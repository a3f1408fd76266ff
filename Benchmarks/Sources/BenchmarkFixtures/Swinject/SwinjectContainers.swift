public import GeneratedServices
public import Swinject

/// The Swinject containers the benchmarks resolve from, registered the way its documentation
/// shows. Swinject's default scope is `.graph`, so transients say `.transient` explicitly.
public enum SwinjectContainers {
    /// Scenarios 1, 2, 3 and 5: settings a singleton, everything else transient.
    public static func makeTransientGraph() -> Container {
        let container = Container()
        container.register(AppSettings.self) { _ in AppSettings() }.inObjectScope(.container)
        container.register(Leaf.self) { _ in Leaf() }.inObjectScope(.transient)
        registerDiamond(in: container, dScope: .transient)
        container.register(RequestHandler.self) { r in
            RequestHandler(context: r.resolve(RequestContext.self)!)
        }
        .inObjectScope(.transient)
        return container
    }

    /// Scenario 4: the same diamond with D a singleton.
    public static func makeGraphWithSingletonLeaf() -> Container {
        let container = Container()
        registerDiamond(in: container, dScope: .container)
        return container
    }

    /// Scenario 5: Swinject has no request scope, so a request gets a child container that
    /// registers the request-scoped service with `.container` scope (one per child). The
    /// handler's factory, registered in the parent, receives the child as its resolver.
    public static func makeRequestContainer(parent: Container) -> Container {
        let child = Container(parent: parent)
        child.register(RequestContext.self) { r in
            RequestContext(settings: r.resolve(AppSettings.self)!)
        }
        .inObjectScope(.container)
        return child
    }

    /// Scenario 6: one registration per generated type, opened from the existential.
    public static func register<Service: GeneratedService>(_ type: Service.Type, in container: Container) {
        container.register(Service.self) { _ in Service() }.inObjectScope(.transient)
    }

    private static func registerDiamond(in container: Container, dScope: ObjectScope) {
        container.register(D.self) { _ in D() }.inObjectScope(dScope)
        container.register(B.self) { r in B(d: r.resolve(D.self)!) }.inObjectScope(.transient)
        container.register(C.self) { r in C(d: r.resolve(D.self)!) }.inObjectScope(.transient)
        container.register(A.self) { r in A(b: r.resolve(B.self)!, c: r.resolve(C.self)!) }
            .inObjectScope(.transient)
    }
}
