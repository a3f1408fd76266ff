import Foundation
import Graft

// Small Sendable types shared by the suites: the seeds' race car, counters and logs.

/// A value behind a lock, safe to share between threads and tasks.
final class Guarded<Value: Sendable>: Sendable {
    private let lock = NSLock()
    // Read and written only while `lock` is held.
    private nonisolated(unsafe) var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
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

protocol Engine: Sendable {
    var name: String { get }
}

protocol Diagnosable: Sendable {
    var report: String { get }
}

final class RCEngine: Engine, Diagnosable {
    let name: String

    init(name: String = "rc") {
        self.name = name
    }

    var report: String { "\(name): all good" }
}

final class V12Engine: Engine {
    let name = "v12"
}

final class Transmission: Sendable {
    init() {}
}

final class Wheel: Sendable {
    init() {}
}

final class RaceCar: Sendable {
    let engine: any Engine
    let transmission: Transmission

    init(engine: any Engine, transmission: Transmission) {
        self.engine = engine
        self.transmission = transmission
    }
}

/// An error a factory or `dispose()` throws on purpose.
struct Jammed: Error, Equatable, CustomStringConvertible {
    let part: String

    var description: String { "\(part) is jammed" }
}

/// A disposable service that logs its disposal and can be told to fail it.
final class Resource: Disposable {
    let label: String
    let log: EventLog
    let failsToDispose: Bool

    init(_ label: String, log: EventLog, failsToDispose: Bool = false) {
        self.label = label
        self.log = log
        self.failsToDispose = failsToDispose
    }

    func dispose() throws {
        log.append(label)
        if failsToDispose { throw Jammed(part: label) }
    }
}

/// Blocks the current thread briefly, to widen races in concurrency tests.
func pause(microseconds: UInt32 = 2_000) {
    usleep(microseconds)
}

extension Array where Element: AnyObject {
    /// How many distinct objects the array holds.
    var distinctCount: Int { Set(map(ObjectIdentifier.init)).count }
}

extension GraftError {
    /// An error equal to any `GraftError` with `code` (errors compare by code), for `#expect(throws:)`.
    static func withCode(_ code: Code) -> GraftError {
        GraftError(code, "any error with code \(code)")
    }
}
