import Benchmark
import BenchmarkFixtures
import GeneratedServices
import Graft

/// Scenarios 1–7 with Graft.
enum GraftSuite {
    static func register() {
        let library = Library.graft

        Benchmark(
            benchmarkName(.singleton, library),
            configuration: BenchmarkSettings.resolution,
            closure: { benchmark, container in
                for _ in benchmark.scaledIterations {
                    blackHole(try container.resolve(AppSettings.self))
                }
            },
            setup: { try withExistingSingleton(GraftContainers.makeTransientGraph(), AppSettings.self) }
        )
        Benchmark(
            benchmarkName(.transient, library),
            configuration: BenchmarkSettings.resolution,
            closure: { benchmark, container in
                for _ in benchmark.scaledIterations {
                    blackHole(try container.resolve(Leaf.self))
                }
            },
            setup: { try GraftContainers.makeTransientGraph() }
        )
        registerGraphs(library)
        Benchmark(
            benchmarkName(.requestScope, library),
            configuration: BenchmarkSettings.resolution,
            closure: { benchmark, container in
                for _ in benchmark.scaledIterations {
                    let scope = container.makeScope()
                    blackHole(try scope.resolve(RequestContext.self))
                    blackHole(try scope.resolve(RequestHandler.self))
                    try scope.close()
                }
            },
            setup: { try withExistingSingleton(GraftContainers.makeTransientGraph(), AppSettings.self) }
        )
        for count in ServiceCount.all {
            Benchmark(
                benchmarkName(.registerAndBuild(services: count), library),
                configuration: BenchmarkSettings.registration
            ) { benchmark in
                let types = generatedServiceTypes.prefix(count)
                benchmark.startMeasurement()
                var builder = ContainerBuilder()
                for type in types {
                    GraftContainers.register(type, in: &builder)
                }
                let container = try builder.build()
                blackHole(try resolveLast(of: types, from: container))
                benchmark.stopMeasurement()
                blackHole(container)
            }
        }
        registerRandomGraph(library)
        registerThreaded(library)
    }

    /// Scenarios 3 and 4, plus scenario 3 with closure factories.
    private static func registerGraphs(_ library: Library) {
        Benchmark(
            benchmarkName(.transientGraph, library),
            configuration: BenchmarkSettings.resolution,
            closure: { benchmark, container in
                for _ in benchmark.scaledIterations {
                    blackHole(try container.resolve(A.self))
                }
            },
            setup: { try GraftContainers.makeTransientGraph() }
        )
        Benchmark(
            benchmarkName(.transientGraph, .graftClosures),
            configuration: BenchmarkSettings.resolution,
            closure: { benchmark, container in
                for _ in benchmark.scaledIterations {
                    blackHole(try container.resolve(A.self))
                }
            },
            setup: { try GraftContainers.makeClosureGraph() }
        )
        Benchmark(
            benchmarkName(.graphWithSingletonLeaf, library),
            configuration: BenchmarkSettings.resolution,
            closure: { benchmark, container in
                for _ in benchmark.scaledIterations {
                    blackHole(try container.resolve(A.self))
                }
            },
            setup: { try withExistingSingleton(GraftContainers.makeGraphWithSingletonLeaf(), D.self) }
        )
    }

    /// Scenario 7: `Container` is `Sendable`, so the threads share it as it is.
    private static func registerThreaded(_ library: Library) {
        for threads in ThreadedWork.threadCounts {
            Benchmark(
                benchmarkName(.threadedSingleton(threads: threads), library),
                configuration: BenchmarkSettings.threads,
                closure: { benchmark, container in
                    try ThreadedWork.run(threads: threads) { blackHole(try container.resolve(AppSettings.self)) }
                },
                setup: { try withExistingSingleton(GraftContainers.makeTransientGraph(), AppSettings.self) }
            )
            Benchmark(
                benchmarkName(.threadedGraph(threads: threads), library),
                configuration: BenchmarkSettings.threads,
                closure: { benchmark, container in
                    try ThreadedWork.run(threads: threads) { blackHole(try container.resolve(A.self)) }
                },
                setup: { try GraftContainers.makeTransientGraph() }
            )
        }
    }

    /// Resolves a singleton once, so the benchmark measures resolving one that already exists.
    private static func withExistingSingleton<Service: Sendable>(
        _ container: Container,
        _ type: Service.Type
    ) throws -> Container {
        _ = try container.resolve(type)
        return container
    }

    /// Resolves the service registered last, so a table that searched linearly would pay for it.
    private static func resolveLast(
        of types: ArraySlice<any GeneratedService.Type>,
        from container: Container
    ) throws -> (any GeneratedService)? {
        guard let last = types.last else { return nil }
        return try resolveOpened(last, from: container)
    }

    private static func resolveOpened<Service: GeneratedService>(
        _ type: Service.Type,
        from container: Container
    ) throws -> Service {
        try container.resolve(Service.self)
    }
}
