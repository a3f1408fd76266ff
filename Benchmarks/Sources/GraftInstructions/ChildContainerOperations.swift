import GeneratedServices
import Graft
import Swinject

/// Child containers (issue 26): a parent of 1,000 or 10,000 generated services, all singletons,
/// built once; each operation makes a child of 10 or 100 singletons, each depending on two of
/// the parent's, as a tenant or a feature would at run time.
enum ChildContainerOperations {
    /// The parent's registrations and the child's, for a scenario.
    static func sizes(_ scenario: Scenario) -> (parent: Int, child: Int) {
        switch scenario {
        case .childOf10000: (10_000, 10)
        case .child100Of1000: (1_000, 100)
        default: (1_000, 10)
        }
    }

    /// The child's services: generated types the parent does not register.
    static func childTypes(_ count: Int) -> ArraySlice<any GeneratedService.Type> {
        generatedServiceTypes[20_000..<(20_000 + count)]
    }

    /// The two parent services child service `index` depends on, spread over the parent.
    static func parentDependencies(of index: Int, parentSize: Int) -> (Int, Int) {
        ((index * 97) % parentSize, (index * 389 + 1) % parentSize)
    }

    // MARK: Graft

    static func runGraft(_ scenario: Scenario, iterations: Int, observers: [any ContainerObserver]) throws {
        let (parentSize, childSize) = sizes(scenario)
        var builder = ContainerBuilder()
        for observer in observers { builder.addObserver(observer) }
        for type in generatedServiceTypes.prefix(parentSize) { registerSingleton(type, in: &builder) }
        let parent = try builder.build()
        let children = Array(childTypes(childSize).enumerated())
        let configure = { (builder: inout ContainerBuilder) in
            for (index, type) in children {
                let (first, second) = parentDependencies(of: index, parentSize: parentSize)
                registerChild(type, generatedServiceTypes[first], generatedServiceTypes[second], in: &builder)
            }
        }
        let last = children.last!.element
        for _ in 0..<iterations {
            let child = try parent.makeChild(configure)
            if scenario == .childOf1000InUse {
                blackHole(try resolve(last, from: child))
                try child.shutdown()
            }
            blackHole(child)
        }
    }

    private static func registerSingleton<Service: GeneratedService>(
        _ type: Service.Type,
        in builder: inout ContainerBuilder
    ) {
        builder.register(Service.self, lifetime: .singleton) { _ in Service() }
    }

    /// Registers `child` as a singleton that resolves `first` and `second`, declared for
    /// `makeChild` to check.
    private static func registerChild(
        _ child: any GeneratedService.Type,
        _ first: any GeneratedService.Type,
        _ second: any GeneratedService.Type,
        in builder: inout ContainerBuilder
    ) {
        func open<Child: GeneratedService>(_: Child.Type) {
            func open<First: GeneratedService>(_: First.Type) {
                func open<Second: GeneratedService>(_: Second.Type) {
                    builder.register(
                        Child.self,
                        lifetime: .singleton,
                        dependencies: [Requirement(First.self), Requirement(Second.self)]
                    ) { resolver in
                        _ = try resolver.resolve(First.self)
                        _ = try resolver.resolve(Second.self)
                        return Child()
                    }
                }
                open(second)
            }
            open(first)
        }
        open(child)
    }

    private static func resolve<Service: GeneratedService>(
        _ type: Service.Type,
        from container: Graft.Container
    ) throws -> Service {
        try container.resolve(Service.self)
    }

    // MARK: Swinject

    /// Swinject's `Container(parent:)`: the child registers the same services, made once per
    /// child (`.container`); nothing is checked.
    static func runSwinject(_ scenario: Scenario, iterations: Int) throws {
        let (parentSize, childSize) = sizes(scenario)
        let parent = Swinject.Container()
        for type in generatedServiceTypes.prefix(parentSize) { registerSingleton(type, in: parent) }
        let children = Array(childTypes(childSize).enumerated())
        let last = children.last!.element
        for _ in 0..<iterations {
            let child = Swinject.Container(parent: parent)
            for (index, type) in children {
                let (first, second) = parentDependencies(of: index, parentSize: parentSize)
                registerChild(type, generatedServiceTypes[first], generatedServiceTypes[second], in: child)
            }
            if scenario == .childOf1000InUse {
                guard let service = resolve(last, from: child) else { throw NotResolved(type: last) }
                blackHole(service)
            }
            blackHole(child)
        }
    }

    private static func registerSingleton<Service: GeneratedService>(
        _ type: Service.Type,
        in container: Swinject.Container
    ) {
        container.register(Service.self) { _ in Service() }.inObjectScope(.container)
    }

    private static func registerChild(
        _ child: any GeneratedService.Type,
        _ first: any GeneratedService.Type,
        _ second: any GeneratedService.Type,
        in container: Swinject.Container
    ) {
        func open<Child: GeneratedService>(_: Child.Type) {
            func open<First: GeneratedService>(_: First.Type) {
                func open<Second: GeneratedService>(_: Second.Type) {
                    container.register(Child.self) { resolver in
                        _ = resolver.resolve(First.self)
                        _ = resolver.resolve(Second.self)
                        return Child()
                    }
                    .inObjectScope(.container)
                }
                open(second)
            }
            open(first)
        }
        open(child)
    }

    private static func resolve<Service: GeneratedService>(
        _ type: Service.Type,
        from container: Swinject.Container
    ) -> Service? {
        container.resolve(Service.self)
    }
}
