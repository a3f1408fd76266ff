/// The libraries compared. Every scenario uses the same names, so the output sorts and
/// compares the same way for each.
enum Library: String {
    case handWritten = "hand-written"
    case graft = "Graft"
    /// Graft with closure factories that resolve by type instead of autowired initializers.
    case graftClosures = "Graft, closure factories"
    case swinject = "Swinject"
    case dependencies = "swift-dependencies"
}

/// The scenarios of issue 7, numbered as there, and scenario 8 of issue 12.
enum Scenario {
    case singleton
    case transient
    case transientGraph
    case graphWithSingletonLeaf
    case requestScope
    case registerAndBuild(services: Int)
    case threadedSingleton(threads: Int)
    case threadedGraph(threads: Int)
    /// Register the random graph's 200 singletons and build (Scripts/generate-random-graph.py).
    case randomGraphCreate
    /// The first resolve of the random graph's root, which makes all 200 singletons.
    case randomGraphResolveRoot

    var title: String {
        switch self {
        case .singleton: "1 singleton"
        case .transient: "2 transient"
        case .transientGraph: "3 graph of 5 transients"
        case .graphWithSingletonLeaf: "4 graph, D singleton"
        case .requestScope: "5 request scope"
        case .registerAndBuild(let services): "6 register+build \(services) services"
        case .threadedSingleton(let threads): "7 singleton, \(threads) thread\(threads == 1 ? "" : "s")"
        case .threadedGraph(let threads): "7 graph, \(threads) thread\(threads == 1 ? "" : "s")"
        case .randomGraphCreate: "8 random graph, create container"
        case .randomGraphResolveRoot: "8 random graph, resolve root"
        }
    }
}

/// The name a benchmark is listed and compared under: "3 graph of 5 transients: Graft".
func benchmarkName(_ scenario: Scenario, _ library: Library) -> String {
    "\(scenario.title): \(library.rawValue)"
}
