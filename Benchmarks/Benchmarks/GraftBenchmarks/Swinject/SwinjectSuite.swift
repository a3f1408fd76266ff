import Benchmark
import BenchmarkFixtures
import GeneratedServices
import Swinject

/// Scenarios 1–7 with Swinject 2.10, the incumbent.
enum SwinjectSuite {
    static func register() {
        let library = Library.swinject

        Benchmark(
            benchmarkName(.singleton, library),
            configuration: BenchmarkSettings.resolution,
            closure: { benchmark, container in
                for _ in benchmark.scaledIterations {
                    blackHole(try resolved(AppSettings.self, from: container))
                }
            },
            setup: { try withExistingSingleton(SwinjectContainers.makeTransientGraph(), AppSettings.self) }
        )
        Benchmark(
            benchmarkName(.transient, library),
            configuration: BenchmarkSettings.resolution,
            closure: { benchmark, container in
                for _ in benchmark.scaledIterations {
                    blackHole(try resolved(Leaf.self, from: container))
                }
            },
            setup: { SwinjectContainers.makeTransientGraph() }
        )
        Benchmark(
            benchmarkName(.transientGraph, library),
            configuration: BenchmarkSettings.resolution,
            closure: { benchmark, container in
                for _ in benchmark.scaledIterations {
                    blackHole(try resolved(A.self, from: container))
                }
            },
            setup: { SwinjectContainers.makeTransientGraph() }
        )
        Benchmark(
            benchmarkName(.graphWithSingletonLeaf, library),
            configuration: BenchmarkSettings.resolution,
            closure: { benchmark, container in
                for _ in benchmark.scaledIterations {
                    blackHole(try resolved(A.self, from: container))
                }
            },
            setup: { try withExistingSingleton(SwinjectContainers.makeGraphWithSingletonLeaf(), D.self) }
        )
        Benchmark(
            benchmarkName(.requestScope, library),
            configuration: BenchmarkSettings.resolution,
            closure: { benchmark, container in
                for _ in benchmark.scaledIterations {
                    let request = SwinjectContainers.makeRequestContainer(parent: container)
                    blackHole(try resolved(RequestContext.self, from: request))
                    blackHole(try resolved(RequestHandler.self, from: request))
                }
            },
            setup: { try withExistingSingleton(SwinjectContainers.makeTransientGraph(), AppSettings.self) }
        )
        for count in ServiceCount.all {
            Benchmark(
                benchmarkName(.registerAndBuild(services: count), library),
                configuration: BenchmarkSettings.registration
            ) { benchmark in
                let types = generatedServiceTypes.prefix(count)
                benchmark.startMeasurement()
                let container = Container()
                for type in types {
                    SwinjectContainers.register(type, in: container)
                }
                blackHole(try resolveLast(of: types, from: container))
                benchmark.stopMeasurement()
                blackHole(container)
            }
        }
        registerRandomGraph(library)
        registerThreaded(library)
    }

    /// Scenario 7 goes through `synchronize()`, Swinject's documented way to resolve from
    /// several threads.
    private static func registerThreaded(_ library: Library) {
        for threads in ThreadedWork.threadCounts {
            Benchmark(
                benchmarkName(.threadedSingleton(threads: threads), library),
                configuration: BenchmarkSettings.threads,
                closure: { benchmark, resolver in
                    try ThreadedWork.run(threads: threads) {
                        blackHole(try resolved(AppSettings.self, from: resolver.value))
                    }
                },
                setup: {
                    let container = try withExistingSingleton(SwinjectContainers.makeTransientGraph(), AppSettings.self)
                    return SharedResolver(container.synchronize())
                }
            )
            Benchmark(
                benchmarkName(.threadedGraph(threads: threads), library),
                configuration: BenchmarkSettings.threads,
                closure: { benchmark, resolver in
                    try ThreadedWork.run(threads: threads) {
                        blackHole(try resolved(A.self, from: resolver.value))
                    }
                },
                setup: { SharedResolver(SwinjectContainers.makeTransientGraph().synchronize()) }
            )
        }
    }

    /// Swinject answers `nil` for a missing registration; the benchmarks turn that into an
    /// error so a broken setup fails instead of measuring nothing.
    private static func resolved<Service>(_ type: Service.Type, from resolver: any Resolver) throws -> Service {
        guard let service = resolver.resolve(type) else { throw SwinjectBenchmarkError.notResolved("\(type)") }
        return service
    }

    /// Resolves a singleton once, so the benchmark measures resolving one that already exists.
    private static func withExistingSingleton<Service>(_ container: Container, _ type: Service.Type) throws -> Container
    {
        _ = try resolved(type, from: container)
        return container
    }

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
        try resolved(type, from: container)
    }
}

enum SwinjectBenchmarkError: Error {
    case notResolved(String)
}

/// Swinject's resolvers are not `Sendable`; the one `synchronize()` returns locks every
/// resolve, which is what makes sharing it between the threads of scenario 7 safe.
struct SharedResolver: @unchecked Sendable {
    let value: any Resolver
    init(_ value: any Resolver) { self.value = value }
}
