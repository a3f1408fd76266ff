import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Android)
import Android
#endif

/// A lock that lives in its owner's own memory: one atomic flag, so an object that needs a lock
/// costs no allocation for it.
///
/// For state that is rarely contended and held for a few instructions: a scope's instances,
/// children and disposal records. A thread that finds it held spins briefly, then yields its
/// core until it is free; nothing may run user code, wait or lock it again while holding it.
///
/// An atomic flag rather than a pthread mutex (which needs an address that never moves, so an
/// allocation of its own) or `Synchronization.Mutex` (whose futex waits ThreadSanitizer cannot
/// see on Linux): taking it is an acquiring exchange and leaving it a releasing store, which
/// order every access it guards, and which ThreadSanitizer understands.
struct InlineLock: ~Copyable, Sendable {
    private let held = Atomic(false)

    init() {}

    func lock() {
        while !held.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
            var spins = 0
            // Read-only while held, so waiting threads do not take the cache line from the holder.
            while held.load(ordering: .relaxed) {
                spins += 1
                if spins >= Self.spinsBeforeYielding {
                    sched_yield()
                    spins = 0
                }
            }
        }
    }

    func unlock() {
        held.store(false, ordering: .releasing)
    }

    /// How often a waiting thread checks the flag before it gives its core to another thread.
    private static var spinsBeforeYielding: Int { 100 }
}
