import BenchmarkFixtures
import Graft

/// What one iteration of a measured loop does.
enum ScalingLoop: String, CaseIterable {
    case singleton
    case graph
    case mixed
    /// Make a scope, resolve its scoped context and a transient handler, close it.
    case requestScope
}

/// Who answers the loop's resolves.
enum ScalingLibrary: String, CaseIterable {
    case handwritten
    /// Hand-written code that hands the singleton out of a function, as a resolve does: the
    /// caller owns what it gets, so every call retains and releases the one shared instance.
    case handwrittenReturned = "handwritten, returned"
    case graft

    /// Whether this library's loop differs from plain hand-written code for `loop`.
    func measures(_ loop: ScalingLoop) -> Bool {
        self != .handwrittenReturned || loop == .singleton || loop == .mixed
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
            case .graph, .requestScope: return try ScalingLibrary.handwritten.step(for: loop)
            }
        case .handwritten:
            let root = HandWrittenComposition()
            blackHole(root.settings)
            switch loop {
            case .singleton: return { blackHole(root.settings) }
            case .graph: return { blackHole(root.makeTransientGraph()) }
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
            }
        case .graft:
            let container = try GraftContainers.makeTransientGraph()
            blackHole(try container.resolve(AppSettings.self))
            switch loop {
            case .singleton: return { blackHole(try? container.resolve(AppSettings.self)) }
            case .graph: return { blackHole(try? container.resolve(A.self)) }
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
            }
        }
    }
}

/// Keeps a value alive as far as the optimizer knows.
@inline(never) @_optimize(none)
func blackHole<Value>(_ value: Value) {}
