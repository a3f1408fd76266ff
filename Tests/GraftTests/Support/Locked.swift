import Foundation

// Lock-guarded state the suites share: a value, a counter and an event log, each safe to use
// from any thread or task. A test makes its own, so parallel tests never share one.

/// A value behind a lock, safe to share between threads and tasks.
///
/// The lock is an `NSLock` (a pthread mutex), not Synchronization's `Mutex`: ThreadSanitizer
/// sees the order a pthread mutex imposes, while on Linux it reports races between threads
/// that took turns through a `Mutex`.
final class Guarded<Value: Sendable>: Sendable {
    private let lock = NSLock()
    // Read and written only while `lock` is held.
    private nonisolated(unsafe) var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    var current: Value { withLock { $0 } }
}

/// Counts calls, from any thread.
final class Counter: Sendable {
    private let count = Guarded(0)

    /// Adds one and returns the new count.
    @discardableResult
    func increment() -> Int {
        count.withLock { count in
            count += 1
            return count
        }
    }

    var value: Int { count.current }
}

/// Records events in the order they happen, from any thread.
final class EventLog: Sendable {
    private let events = Guarded([String]())

    func append(_ event: String) {
        events.withLock { $0.append(event) }
    }

    var entries: [String] { events.current }
}
