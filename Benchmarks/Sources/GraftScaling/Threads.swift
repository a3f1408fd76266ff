import Foundation
import Synchronization

/// Runs a step on several threads at once until a deadline.
enum Threads {
    /// The iterations `count` threads finished in `seconds`, summed: each thread loops `step`
    /// from a common start until the deadline, checking the clock every 256 iterations.
    static func run(count: Int, seconds: Double, _ step: @escaping @Sendable () -> Void) -> Int {
        runEach(count: count, seconds: seconds, step).reduce(0) { $0 + $1.iterations }
    }

    /// What one thread of ``runEach(count:seconds:_:)`` did.
    struct ThreadResult: Sendable {
        var iterations: Int
        /// The processor time the thread used, in seconds (`CLOCK_THREAD_CPUTIME_ID`): what it
        /// ran, whether resolving, spinning or in the kernel, and not the time it waited to run.
        var cpuSeconds: Double
    }

    /// The iterations each of `count` threads finished in `seconds`, as ``run(count:seconds:_:)``
    /// counts them, and the processor time each used, one element a thread (in no particular
    /// order).
    static func runEach(count: Int, seconds: Double, _ step: @escaping @Sendable () -> Void) -> [ThreadResult] {
        let finishedIterations = Mutex<[ThreadResult]>([])
        let started = Atomic<Int>(0)
        let finished = DispatchSemaphore(value: 0)
        let go = DispatchSemaphore(value: 0)
        for _ in 0..<count {
            let thread = Thread {
                started.add(1, ordering: .relaxed)
                go.wait()
                let startCPU = threadCPUSeconds()
                let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
                var iterations = 0
                while true {
                    for _ in 0..<256 { step() }
                    iterations += 256
                    if ContinuousClock.now >= deadline { break }
                }
                let result = ThreadResult(iterations: iterations, cpuSeconds: threadCPUSeconds() - startCPU)
                finishedIterations.withLock { $0.append(result) }
                finished.signal()
            }
            thread.start()
        }
        while started.load(ordering: .relaxed) < count { usleep(100) }
        for _ in 0..<count { go.signal() }
        for _ in 0..<count { finished.wait() }
        return finishedIterations.withLock { $0 }
    }

    /// The calling thread's processor time so far, in seconds.
    private static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
