import Benchmark
import BenchmarkFixtures
import GeneratedServices

/// Scenarios 1–7 written by hand: the baseline every container is compared to.
enum HandWrittenSuite {
    static func register() {
        let library = Library.handWritten
        let root = HandWrittenComposition()

        Benchmark(benchmarkName(.singleton, library), configuration: BenchmarkSettings.resolution) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(root.settings)
            }
        }
        Benchmark(benchmarkName(.transient, library), configuration: BenchmarkSettings.resolution) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(root.makeLeaf())
            }
        }
        Benchmark(benchmarkName(.transientGraph, library), configuration: BenchmarkSettings.resolution) {
            benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(root.makeTransientGraph())
            }
        }
        Benchmark(benchmarkName(.graphWithSingletonLeaf, library), configuration: BenchmarkSettings.resolution) {
            benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(root.makeGraphWithSharedD())
            }
        }
        Benchmark(benchmarkName(.requestScope, library), configuration: BenchmarkSettings.resolution) { benchmark in
            for _ in benchmark.scaledIterations {
                var scope = root.makeRequestScope()
                blackHole(scope.requestContext())
                blackHole(scope.makeHandler())
            }
        }
        for count in ServiceCount.all {
            Benchmark(
                benchmarkName(.registerAndBuild(services: count), library),
                configuration: BenchmarkSettings.registration
            ) { benchmark in
                let types = generatedServiceTypes.prefix(count)
                benchmark.startMeasurement()
                var registry = HandWrittenRegistry()
                for type in types {
                    registry.register(type)
                }
                blackHole(resolveLast(of: types, in: registry))
                benchmark.stopMeasurement()
                blackHole(registry)
            }
        }
        registerRandomGraph(library)
        for threads in ThreadedWork.threadCounts {
            Benchmark(
                benchmarkName(.threadedSingleton(threads: threads), library),
                configuration: BenchmarkSettings.threads
            ) { benchmark in
                try ThreadedWork.run(threads: threads) { blackHole(root.settings) }
            }
            Benchmark(
                benchmarkName(.threadedGraph(threads: threads), library),
                configuration: BenchmarkSettings.threads
            ) { benchmark in
                try ThreadedWork.run(threads: threads) { blackHole(root.makeTransientGraph()) }
            }
        }
    }

    /// Resolves the service registered last, so a registry that searched linearly would pay for it.
    private static func resolveLast(
        of types: ArraySlice<any GeneratedService.Type>,
        in registry: HandWrittenRegistry
    ) -> (any GeneratedService)? {
        guard let last = types.last else { return nil }
        return registry.resolve(last)
    }
}
