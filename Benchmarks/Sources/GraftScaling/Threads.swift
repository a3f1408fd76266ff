import Foundation
import Synchronization

/// Runs a step on several threads at once until a deadline.
enum Threads {
    /// The iterations `count` threads finished in `seconds`, summed: each thread loops `step`
    /// from a common start until the deadline, checking the clock every 256 iterations.
    static func run(count: Int, seconds: Double, _ step: @escaping @Sendable () -> Void) -> Int {
        let total = Atomic<Int>(0)
        let started = Atomic<Int>(0)
        let finished = DispatchSemaphore(value: 0)
        let go = DispatchSemaphore(value: 0)
        for _ in 0..<count {
            let thread = Thread {
                started.add(1, ordering: .relaxed)
                go.wait()
                let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
                var iterations = 0
                while true {
                    for _ in 0..<256 { step() }
                    iterations += 256
                    if ContinuousClock.now >= deadline { break }
                }
                total.add(iterations, ordering: .relaxed)
                finished.signal()
            }
            thread.start()
        }
        while started.load(ordering: .relaxed) < count { usleep(100) }
        for _ in 0..<count { go.signal() }
        for _ in 0..<count { finished.wait() }
        return total.load(ordering: .relaxed)
    }
}
