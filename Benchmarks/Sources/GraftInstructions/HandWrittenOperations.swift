import BenchmarkFixtures
import RandomGraph

/// The scenarios written by hand, from the same composition as the ordo-one benchmarks.
enum HandWrittenOperations {
    static func run(_ scenario: Scenario, iterations: Int) {
        let root = HandWrittenComposition()
        switch scenario {
        case .singleton:
            for _ in 0..<iterations { blackHole(root.settings) }
        case .transient:
            for _ in 0..<iterations { blackHole(root.makeLeaf()) }
        case .graph:
            for _ in 0..<iterations { blackHole(root.makeTransientGraph()) }
        case .graphSingletonLeaf:
            for _ in 0..<iterations { blackHole(root.makeGraphWithSharedD()) }
        case .requestScope:
            for _ in 0..<iterations {
                var scope = root.makeRequestScope()
                blackHole(scope.requestContext())
                blackHole(scope.makeHandler())
            }
        case .randomGraphCreate:
            for _ in 0..<iterations { blackHole(HandWrittenRandomGraph()) }
        case .childOf1000, .childOf10000, .child100Of1000, .childOf1000InUse:
            break  // refused by main.swift
        case .randomGraphFirstUse:
            for _ in 0..<iterations { blackHole(HandWrittenRandomGraph().root) }
        case .randomGraphResolveAgain:
            let singletons = HandWrittenRandomGraphSingletons()
            for _ in 0..<iterations { singletons.resolveEach() }
        }
    }
}
