import BenchmarkFixtures
import Foundation
import Graft
import RandomGraph

/// What one iteration of a measured loop does.
enum ScalingLoop: String, CaseIterable {
    case singleton
    /// A transient with no dependencies (a closure factory).
    case transient
    case graph
    /// The graph with D an existing singleton.
    case graphSingletonLeaf
    case mixed
    /// Make a scope, resolve its scoped context and a transient handler, close it.
    case requestScope
    /// Resolve every one of the random graph's 200 existing singletons once, each through its own
    /// type: an existing singleton among many types, where `singleton` asks for one.
    case randomGraphResolveAgain

    /// How many services one iteration resolves, for a loop of many resolves of the same kind.
    var resolvesPerIteration: Int? {
        self == .randomGraphResolveAgain ? RandomGraph.nodeCount : nil
    }

    /// Nanoseconds per iteration, with the time per resolve for a loop of many resolves.
    func describe(nanoseconds: Double) -> String {
        let total = String(format: "%.1f", nanoseconds)
        guard let resolves = resolvesPerIteration else { return total }
        return total + String(format: " (%.1f per resolve)", nanoseconds / Double(resolves))
    }
}

/// Who answers the loop's resolves.
enum ScalingLibrary: String, CaseIterable {
    case handwritten
    /// Hand-written code that hands the singleton out of a function, as a resolve does: the
    /// caller owns what it gets, so every call retains and releases the one shared instance.
    case handwrittenReturned = "handwritten, returned"
    case graft
    /// The random graph's singletons in a `[ObjectIdentifier: AnyObject]`, looked up by type and
    /// cast back: only for `randomGraphResolveAgain`.
    case dictionary

    /// Whether this library's loop differs from plain hand-written code for `loop`.
    func measures(_ loop: ScalingLoop) -> Bool {
        switch self {
        case .handwrittenReturned: loop == .singleton || loop == .mixed
        case .dictionary: loop == .randomGraphResolveAgain
        case .handwritten, .graft: true
        }
    }

    /// One iteration of `loop`, ready to run from any thread; the container or composition is
    /// made (and its singletons created) here, outside the timed part.
    func step(for loop: ScalingLoop) throws -> @Sendable () -> Void {
        switch self {
        case .handwrittenReturned:
            let root = HandWrittenComposition()
            switch loop {
            case .singleton: return { blackHole(root.handOutSettings()) }
            case .mixed:
                return {
                    blackHole(root.handOutSettings())
                    blackHole(root.makeTransientGraph())
                }
            case .transient, .graph, .graphSingletonLeaf, .requestScope, .randomGraphResolveAgain:
                return try ScalingLibrary.handwritten.step(for: loop)
            }
        case .dictionary:
            let graph = DictionaryRandomGraph()
            return { graph.resolveEach() }
        case .handwritten:
            let root = HandWrittenComposition()
            blackHole(root.settings)
            switch loop {
            case .singleton: return { blackHole(root.settings) }
            case .transient: return { blackHole(root.makeLeaf()) }
            case .graph: return { blackHole(root.makeTransientGraph()) }
            case .graphSingletonLeaf: return { blackHole(root.makeGraphWithSharedD()) }
            case .mixed:
                return {
                    blackHole(root.settings)
                    blackHole(root.makeTransientGraph())
                }
            case .requestScope:
                return {
                    var scope = root.makeRequestScope()
                    blackHole(scope.requestContext())
                    blackHole(scope.makeHandler())
                }
            case .randomGraphResolveAgain:
                let singletons = HandWrittenRandomGraphSingletons()
                return { singletons.resolveEach() }
            }
        case .graft:
            let container = try GraftContainers.makeTransientGraph()
            blackHole(try container.resolve(AppSettings.self))
            switch loop {
            case .singleton: return { blackHole(try? container.resolve(AppSettings.self)) }
            case .transient: return { blackHole(try? container.resolve(Leaf.self)) }
            case .graph: return { blackHole(try? container.resolve(A.self)) }
            case .graphSingletonLeaf:
                let leafContainer = try GraftContainers.makeGraphWithSingletonLeaf()
                blackHole(try leafContainer.resolve(D.self))
                return { blackHole(try? leafContainer.resolve(A.self)) }
            case .mixed:
                return {
                    blackHole(try? container.resolve(AppSettings.self))
                    blackHole(try? container.resolve(A.self))
                }
            case .requestScope:
                return {
                    let scope = container.makeScope()
                    blackHole(try? scope.resolve(RequestContext.self))
                    blackHole(try? scope.resolve(RequestHandler.self))
                    try? scope.close()
                }
            case .randomGraphResolveAgain:
                var builder = ContainerBuilder()
                RandomGraph.register(in: &builder)
                let graphContainer = try builder.build()
                blackHole(try graphContainer.resolve(RandomGraph.Root.self))
                return { try? RandomGraph.resolveEach(from: graphContainer) }
            }
        }
    }
}

/// Keeps a value alive as far as the optimizer knows.
@inline(never) @_optimize(none)
func blackHole<Value>(_ value: Value) {}
