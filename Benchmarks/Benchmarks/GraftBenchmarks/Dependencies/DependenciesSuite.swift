import Benchmark
import BenchmarkFixtures
import Dependencies

/// The scenarios that fit swift-dependencies (1, 5 and 7's singleton): see
/// `DependencyValues+Services.swift` for why the others do not.
enum DependenciesSuite {
    static func register() {
        let library = Library.dependencies

        Benchmark(benchmarkName(.singleton, library), configuration: BenchmarkSettings.resolution) { benchmark in
            readSettingsOnce()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(Dependency(\.appSettings).wrappedValue)
            }
        }
        Benchmark(benchmarkName(.requestScope, library), configuration: BenchmarkSettings.resolution) { benchmark in
            readSettingsOnce()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                // The request's scope is the `withDependencies` call: it sets the context, and
                // the handler, which swift-dependencies cannot make, is made by its initializer.
                withDependencies {
                    $0.requestContext = RequestContext(settings: $0.appSettings)
                } operation: {
                    let context = Dependency(\.requestContext).wrappedValue
                    blackHole(context)
                    blackHole(RequestHandler(context: context))
                }
            }
        }
        for threads in ThreadedWork.threadCounts {
            Benchmark(
                benchmarkName(.threadedSingleton(threads: threads), library),
                configuration: BenchmarkSettings.threads
            ) { benchmark in
                readSettingsOnce()
                benchmark.startMeasurement()
                try ThreadedWork.run(threads: threads) { blackHole(Dependency(\.appSettings).wrappedValue) }
            }
        }
    }

    /// Makes the live value exist, so the benchmarks read a singleton that already exists.
    private static func readSettingsOnce() {
        blackHole(Dependency(\.appSettings).wrappedValue)
    }
}
