import Benchmark
import RandomGraph
import Swinject

/// Scenario 8 with Swinject: every node in `.container` scope. Creating the container is only
/// registering; Swinject has no build step and checks nothing until a resolve.
extension SwinjectSuite {
    static func registerRandomGraph(_ library: Library) {
        Benchmark(benchmarkName(.randomGraphCreate, library), configuration: BenchmarkSettings.randomGraph) {
            benchmark in
            blackHole(makeRandomGraphContainer())
        }
        Benchmark(benchmarkName(.randomGraphResolveRoot, library), configuration: BenchmarkSettings.randomGraph) {
            benchmark in
            let container = makeRandomGraphContainer()
            benchmark.startMeasurement()
            guard let root = container.resolve(RandomGraph.Root.self) else {
                throw SwinjectBenchmarkError.notResolved("\(RandomGraph.Root.self)")
            }
            blackHole(root)
            benchmark.stopMeasurement()
            blackHole(container)
        }
    }

    private static func makeRandomGraphContainer() -> Container {
        let container = Container()
        RandomGraph.register(in: container)
        return container
    }
}
