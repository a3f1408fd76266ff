import Benchmark
import RandomGraph

/// Scenario 8 by hand: the "container" is a composition of `lazy var`s, so creating it is one
/// allocation and resolving the root makes every node once.
extension HandWrittenSuite {
    static func registerRandomGraph(_ library: Library) {
        Benchmark(benchmarkName(.randomGraphCreate, library), configuration: BenchmarkSettings.randomGraph) {
            benchmark in
            blackHole(HandWrittenRandomGraph())
        }
        Benchmark(benchmarkName(.randomGraphResolveRoot, library), configuration: BenchmarkSettings.randomGraph) {
            benchmark in
            let graph = HandWrittenRandomGraph()
            benchmark.startMeasurement()
            blackHole(graph.root)
            benchmark.stopMeasurement()
            blackHole(graph)
        }
    }
}
