import Dispatch

/// Runs a fixed amount of resolving on one or more threads at once (scenario 7).
///
/// The total is the same whatever the thread count, so the wall clock of 1 thread divided by
/// that of 2 threads is the speed-up: 2.0 when a library scales perfectly, below 1.0 when its
/// threads get in each other's way.
enum ThreadedWork {
    static let threadCounts = [1, 2]

    /// Enough resolves per iteration that starting the threads costs little next to them.
    static let resolvesPerIteration = BenchmarkSettings.isSmokeRun ? 100 : 100_000

    /// Calls `resolve` `resolvesPerIteration` times in all, split evenly over `threads` threads.
    /// `concurrentPerform` reuses Dispatch's worker threads, so no thread is created per
    /// iteration; 1 thread goes through it too, so both counts pay the same overhead.
    static func run(threads: Int, resolve: @Sendable () throws -> Void) throws {
        let resolvesPerThread = resolvesPerIteration / threads
        let failures = FailureCollector()
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            do {
                for _ in 0..<resolvesPerThread {
                    try resolve()
                }
            } catch {
                failures.record(error)
            }
        }
        try failures.throwFirst()
    }
}
