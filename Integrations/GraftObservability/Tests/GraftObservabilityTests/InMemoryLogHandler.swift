import Foundation
import Logging

/// A swift-log handler that keeps every record, so a test reads the exact line a user would.
///
/// `@unchecked Sendable` is sound: `records` is private and read or written only with `lock`
/// held; the handler's other stored properties are value types copied into each copy of the
/// handler (swift-log copies handlers to change their metadata), and every copy shares the one
/// `Store`.
struct InMemoryLogHandler: LogHandler {
    /// One logged record: its level, its message and the metadata it was logged with.
    struct Record: Sendable, Equatable {
        let level: Logger.Level
        let message: String
        let metadata: [String: String]
    }

    /// The records of every copy of the handler, guarded by a lock.
    final class Store: @unchecked Sendable {
        private let lock = NSLock()
        private var records: [Record] = []

        func append(_ record: Record) {
            lock.lock()
            defer { lock.unlock() }
            records.append(record)
        }

        /// Every record so far, oldest first.
        var all: [Record] {
            lock.lock()
            defer { lock.unlock() }
            return records
        }

        /// The records logged at `error` level or above.
        var errors: [Record] { all.filter { $0.level >= .error } }
    }

    let store: Store
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        store.append(Record(level: event.level, message: "\(event.message)", metadata: merged.mapValues { "\($0)" }))
    }

    /// A logger writing to a new store, and the store.
    static func logger() -> (Logger, Store) {
        let store = Store()
        return (Logger(label: "test") { _ in InMemoryLogHandler(store: store) }, store)
    }
}
