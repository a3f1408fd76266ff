import Benchmark
import Foundation

/// The configurations every library's benchmarks share, so hand-written code, Graft, Swinject
/// and swift-dependencies always run under identical settings.
enum BenchmarkSettings {
    /// `GRAFT_BENCHMARK_SMOKE=1` runs each benchmark once with one inner iteration. CI uses it
    /// to check that every benchmark still builds and runs; it measures nothing worth keeping.
    static let isSmokeRun = ProcessInfo.processInfo.environment["GRAFT_BENCHMARK_SMOKE"].map { $0 != "0" } ?? false

    /// Resolving: nanoseconds per call, so 1,000 calls per measured iteration keep the cost of
    /// reading the clock and the counters out of the result.
    static var resolution: Benchmark.Configuration {
        configuration(
            metrics: [.wallClock, .instructions, .mallocCountTotal],
            scalingFactor: .kilo,
            maxDuration: .seconds(1),
            maxIterations: 10_000
        )
    }

    /// Registering and building thousands of services: milliseconds per iteration, so a few
    /// dozen iterations are enough. `memoryLeakedBytes` is the memory still held when the
    /// measurement stops, that is the built container: divided by the service count it is the
    /// cost of one registration.
    static var registration: Benchmark.Configuration {
        configuration(
            metrics: [.wallClock, .instructions, .mallocCountTotal, .mallocBytesCount, .memoryLeakedBytes],
            scalingFactor: .one,
            maxDuration: .seconds(2),
            maxIterations: 50
        )
    }

    /// Scenario 8, the random graph: one container made, or one root resolved, per iteration,
    /// each some microseconds, so a measurement per iteration is precise enough.
    static var randomGraph: Benchmark.Configuration {
        configuration(
            metrics: [.wallClock, .instructions, .mallocCountTotal],
            scalingFactor: .one,
            maxDuration: .seconds(1),
            maxIterations: 2_000
        )
    }

    /// Resolving from several threads: one iteration is `ThreadedWork.resolvesPerIteration`
    /// resolves shared among the threads, so wall clock compares directly between 1 and 2
    /// threads. Instructions are counted on the calling thread only, so they are left out.
    static var threads: Benchmark.Configuration {
        configuration(
            metrics: [.wallClock, .mallocCountTotal],
            scalingFactor: .one,
            maxDuration: .seconds(1),
            maxIterations: 1_000
        )
    }

    private static func configuration(
        metrics: [BenchmarkMetric],
        scalingFactor: BenchmarkScalingFactor,
        maxDuration: Duration,
        maxIterations: Int
    ) -> Benchmark.Configuration {
        if isSmokeRun {
            return .init(
                metrics: metrics,
                warmupIterations: 0,
                scalingFactor: .one,
                maxDuration: .milliseconds(1),
                maxIterations: 1
            )
        }
        return .init(
            metrics: metrics,
            timeUnits: .nanoseconds,
            warmupIterations: 3,
            scalingFactor: scalingFactor,
            maxDuration: maxDuration,
            maxIterations: maxIterations
        )
    }
}
