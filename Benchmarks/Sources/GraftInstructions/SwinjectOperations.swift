import BenchmarkFixtures
import RandomGraph
import Swinject

/// The scenarios with Swinject's default, unsynchronized `Container`, as in the ordo-one
/// benchmarks; a request is a child container (SwinjectContainers says why).
enum SwinjectOperations {
    static func run(_ scenario: Scenario, iterations: Int) throws {
        switch scenario {
        case .singleton:
            let container = SwinjectContainers.makeTransientGraph()
            _ = try resolved(AppSettings.self, from: container)
            for _ in 0..<iterations { blackHole(try resolved(AppSettings.self, from: container)) }
        case .transient:
            let container = SwinjectContainers.makeTransientGraph()
            for _ in 0..<iterations { blackHole(try resolved(Leaf.self, from: container)) }
        case .graph:
            let container = SwinjectContainers.makeTransientGraph()
            for _ in 0..<iterations { blackHole(try resolved(A.self, from: container)) }
        case .graphSingletonLeaf:
            let container = SwinjectContainers.makeGraphWithSingletonLeaf()
            _ = try resolved(D.self, from: container)
            for _ in 0..<iterations { blackHole(try resolved(A.self, from: container)) }
        case .requestScope:
            let container = SwinjectContainers.makeTransientGraph()
            _ = try resolved(AppSettings.self, from: container)
            for _ in 0..<iterations {
                let request = SwinjectContainers.makeRequestContainer(parent: container)
                blackHole(try resolved(RequestContext.self, from: request))
                blackHole(try resolved(RequestHandler.self, from: request))
            }
        case .randomGraphCreate:
            for _ in 0..<iterations {
                let container = Container()
                RandomGraph.register(in: container)
                blackHole(container)
            }
        case .childOf1000, .childOf10000, .child100Of1000, .childOf1000InUse:
            try ChildContainerOperations.runSwinject(scenario, iterations: iterations)
        case .randomGraphFirstUse:
            for _ in 0..<iterations {
                let container = Container()
                RandomGraph.register(in: container)
                blackHole(try resolved(RandomGraph.Root.self, from: container))
            }
        case .randomGraphResolveAgain:
            let container = Container()
            RandomGraph.register(in: container)
            _ = try resolved(RandomGraph.Root.self, from: container)
            for _ in 0..<iterations { RandomGraph.resolveEach(from: container) }
        }
    }

    /// Swinject answers `nil` for a missing registration; a broken setup stops the run.
    private static func resolved<Service>(_ type: Service.Type, from resolver: any Resolver) throws -> Service {
        guard let service = resolver.resolve(type) else { throw NotResolved(type: type) }
        return service
    }
}
