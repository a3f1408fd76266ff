import Graft
import Synchronization

// Services that hold something to release: the disposable resource, the async pool and the
// database the suites share.

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

/// A connection pool whose release needs `await`: `dispose()` suspends, then writes the
/// pool's label to its log.
///
/// `Pool(_:log:)` makes one without awaiting, so a synchronous factory can; `Pool(opening:log:)`
/// awaits, as a real pool opening its connections would, so its factory is async.
final class Pool: AsyncDisposable {
    let label: String
    let log: EventLog
    private let disposed = Atomic(false)

    init(_ label: String = "pool", log: EventLog = EventLog()) {
        self.label = label
        self.log = log
    }

    convenience init(opening label: String = "pool", log: EventLog = EventLog()) async {
        await Task.yield()
        self.init(label, log: log)
    }

    /// Whether `dispose()` ran.
    var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    func dispose() async throws {
        await Task.yield()
        disposed.store(true, ordering: .releasing)
        log.append(label)
    }
}

/// A service with nothing inside, whose factory the tests make async or synchronous.
final class Database: Sendable {
    init() {}
}
