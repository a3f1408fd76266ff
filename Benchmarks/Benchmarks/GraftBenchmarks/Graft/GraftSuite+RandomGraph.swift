import Benchmark
import Graft
import RandomGraph

/// Scenario 8 with Graft: every node an autowired singleton. Creating the container includes
/// `build()`, which links and validates the 1,783 dependencies.
extension GraftSuite {
    static func registerRandomGraph(_ library: Library) {
        Benchmark(benchmarkName(.randomGraphCreate, library), configuration: BenchmarkSettings.randomGraph) {
            benchmark in
            blackHole(try makeRandomGraphContainer())
        }
        Benchmark(benchmarkName(.randomGraphResolveRoot, library), configuration: BenchmarkSettings.randomGraph) {
            benchmark in
            // A new container each iteration, made before the measurement starts, so every
            // iteration makes all 200 singletons.
            let container = try makeRandomGraphContainer()
            benchmark.startMeasurement()
            blackHole(try container.resolve(RandomGraph.Root.self))
            benchmark.stopMeasurement()
            blackHole(container)
        }
    }

    private static func makeRandomGraphContainer() throws -> Container {
        var builder = ContainerBuilder()
        RandomGraph.register(in: &builder)
        return try builder.build()
    }
}
