import Dispatch
import Foundation
import Testing

// Signals for tests whose code runs on threads of their own: a factory or a `dispose()` says
// what happened ("entered") and waits for the test's go-ahead. Every wait ends when what it waits
// for happens; the only clock is a deadlock guard, generous enough that a slow, busy machine never
// trips it and only a real hang does.

/// How long a wait goes on before the test records a hang: ten minutes.
let deadlockGuard: Duration = .seconds(600)

/// A gate that opens once, waited at by threads (blocking) or by tasks (suspended).
final class ThreadLatch: Sendable {
    private let condition = NSCondition()
    private nonisolated(unsafe) var isOpen = false  // read and written with `condition` locked
    private let asyncLatch = Latch()

    init() {}

    /// Lets every waiter, and every later one, through.
    func open() {
        condition.lock()
        isOpen = true
        condition.broadcast()
        condition.unlock()
        asyncLatch.open()
    }

    var hasOpened: Bool {
        condition.lock()
        defer { condition.unlock() }
        return isOpen
    }

    /// Blocks the calling thread until the latch opens; records an issue if the deadlock guard
    /// runs out first. Call it only from a thread of the test's own, never from a task.
    func waitBlocking(_ what: String = "a signal", sourceLocation: SourceLocation = #_sourceLocation) {
        let deadline = Date(timeIntervalSinceNow: TimeInterval(deadlockGuard.components.seconds))
        condition.lock()
        defer { condition.unlock() }
        while !isOpen {
            if !condition.wait(until: deadline) {
                Issue.record("waited \(deadlockGuard) for \(what): a deadlock", sourceLocation: sourceLocation)
                return
            }
        }
    }

    /// Suspends until the latch opens (or the task is cancelled, as a test's time limit does).
    func wait() async {
        await asyncLatch.wait()
    }
}

/// Runs `body` on a thread of its own, outside any task, at once; `value()` awaits its result
/// without blocking a thread of the cooperative pool.
final class OnThread<Value: Sendable>: Sendable {
    private let result = Guarded<Value?>(nil)
    private let done = ThreadLatch()

    init(_ body: @escaping @Sendable () -> Value) {
        let (result, done) = (result, done)
        let thread = Thread {
            let value = body()
            result.withLock { $0 = value }
            done.open()
        }
        thread.start()
    }

    /// What `body` returned, once it has; `nil` only if the test is cancelled first.
    func value() async -> Value? {
        await done.wait()
        return result.current
    }
}

/// Waits, suspended, until `condition` holds: for a state the engine makes visible (a scope's
/// `isClosed`), never for a length of time. Records an issue if the deadlock guard runs out.
func waitUntil(
    _ what: String,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () -> Bool
) async {
    let deadline = ContinuousClock.now + deadlockGuard
    while !condition() {
        if ContinuousClock.now > deadline || Task.isCancelled {
            Issue.record("waited \(deadlockGuard) until \(what): a deadlock", sourceLocation: sourceLocation)
            return
        }
        try? await Task.sleep(for: .milliseconds(1))
    }
}

/// A barrier for threads: each arrives and blocks until `parties` have arrived.
final class ThreadBarrier: Sendable {
    private let arrived: Guarded<Int>
    private let parties: Int
    private let everyone = ThreadLatch()

    init(parties: Int) {
        self.parties = parties
        arrived = Guarded(0)
    }

    /// Counts the caller in and blocks until every party has arrived.
    func arriveAndWait(sourceLocation: SourceLocation = #_sourceLocation) {
        let count = arrived.withLock { count in
            count += 1
            return count
        }
        if count >= parties { everyone.open() }
        everyone.waitBlocking("\(parties) parties at a barrier", sourceLocation: sourceLocation)
    }

    /// How many have arrived so far.
    var count: Int { arrived.current }
}
