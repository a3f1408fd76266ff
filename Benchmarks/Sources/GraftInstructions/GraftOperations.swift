import BenchmarkFixtures
import Graft
import RandomGraph

/// The scenarios with Graft, from the containers the ordo-one benchmarks build.
enum GraftOperations {
    static func run(_ scenario: Scenario, iterations: Int, observers: [any ContainerObserver] = []) throws {
        switch scenario {
        case .singleton:
            let container = try GraftContainers.makeTransientGraph(observers: observers)
            _ = try container.resolve(AppSettings.self)
            for _ in 0..<iterations { blackHole(try container.resolve(AppSettings.self)) }
        case .transient:
            let container = try GraftContainers.makeTransientGraph(observers: observers)
            for _ in 0..<iterations { blackHole(try container.resolve(Leaf.self)) }
        case .graph:
            let container = try GraftContainers.makeTransientGraph(observers: observers)
            for _ in 0..<iterations { blackHole(try container.resolve(A.self)) }
        case .graphSingletonLeaf:
            let container = try GraftContainers.makeGraphWithSingletonLeaf(observers: observers)
            _ = try container.resolve(D.self)
            for _ in 0..<iterations { blackHole(try container.resolve(A.self)) }
        case .requestScope:
            let container = try GraftContainers.makeTransientGraph(observers: observers)
            _ = try container.resolve(AppSettings.self)
            for _ in 0..<iterations {
                let scope = container.makeScope()
                blackHole(try scope.resolve(RequestContext.self))
                blackHole(try scope.resolve(RequestHandler.self))
                try scope.close()
            }
        case .randomGraphCreate:
            for _ in 0..<iterations {
                var builder = ContainerBuilder()
                RandomGraph.register(in: &builder)
                blackHole(try builder.build())
            }
        case .childOf1000, .childOf10000, .child100Of1000, .childOf1000InUse:
            try ChildContainerOperations.runGraft(scenario, iterations: iterations, observers: observers)
        case .randomGraphFirstUse:
            for _ in 0..<iterations {
                var builder = ContainerBuilder()
                RandomGraph.register(in: &builder)
                blackHole(try builder.build().resolve(RandomGraph.Root.self))
            }
        case .randomGraphResolveAgain:
            let container = try makeRandomGraphInUse(observers: observers)
            for _ in 0..<iterations { try RandomGraph.resolveEach(from: container) }
        }
    }

    /// The random graph's container with its root resolved, so that every singleton exists.
    static func makeRandomGraphInUse(observers: [any ContainerObserver] = []) throws -> Container {
        var builder = ContainerBuilder()
        for observer in observers { builder.addObserver(observer) }
        RandomGraph.register(in: &builder)
        let container = try builder.build()
        _ = try container.resolve(RandomGraph.Root.self)
        return container
    }
}

/// An observer told of everything, which does nothing with it.
struct IgnoringObserver: ContainerObserver {}
