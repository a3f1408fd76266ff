import Foundation
import Graft

/// What happened to the units of work, in order.
final class Journal: @unchecked Sendable {
    // Sound: `entries` is private and only touched with `lock` held.
    private let lock = NSLock()
    private var entries: [String] = []

    func append(_ entry: String) {
        lock.lock()
        defer { lock.unlock() }
        entries.append(entry)
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return entries
    }

    /// Returns once `count` entries were written; the suite's time limit bounds the wait.
    func waitFor(_ count: Int) async {
        while all.count < count, !Task.isCancelled { await Task.yield() }
    }
}

struct UniqueViolation: Error, CustomStringConvertible {
    var description: String { #"duplicate key value violates unique constraint "orders_pkey""# }
}

/// A request's transaction: COMMIT in the completion step, ROLLBACK (when not committed) in dispose().
final class OrderTransaction: Completable, AsyncDisposable {
    let journal: Journal
    let commitFails: Bool
    private let lock = NSLock()
    private nonisolated(unsafe) var committed = false  // Sound: only touched with `lock` held.

    init(journal: Journal, commitFails: Bool) {
        self.journal = journal
        self.commitFails = commitFails
    }

    func complete() async throws {
        guard !commitFails else {
            journal.append("COMMIT failed")
            throw UniqueViolation()
        }
        journal.append("COMMIT")
        lock.withLock { committed = true }
    }

    func dispose() async {
        journal.append(lock.withLock { committed } ? "release" : "ROLLBACK")
    }
}
