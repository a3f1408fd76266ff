import Synchronization

/// Keeps the first error thrown on any worker thread, so a threaded benchmark fails loudly
/// instead of measuring a loop that stopped early.
final class FailureCollector: Sendable {
    private let firstError = Mutex<(any Error)?>(nil)

    func record(_ error: any Error) {
        firstError.withLock { stored in
            if stored == nil { stored = error }
        }
    }

    func throwFirst() throws {
        if let error = firstError.withLock({ $0 }) { throw error }
    }
}
