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

/// A mutual-exclusion lock with a condition variable, over pthreads.
///
/// The mutex and condition live in their own heap allocation so their address never moves,
/// which pthreads requires. Only the creation coordinator uses it, because threads wait on it;
/// everything else uses `Synchronization.Mutex` through ``Locked``.
final class Lock {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// Only locks that threads wait on have one; most locks never do, and save its allocation.
    private let condition: UnsafeMutablePointer<pthread_cond_t>?

    init(waitable: Bool = false) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        // Initialisation fails only when the system is out of resources; there is nothing a
        // caller could do then, and the lock would be unusable, so the result is not checked.
        pthread_mutex_init(mutex, nil)
        if waitable {
            let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
            condition.initialize(to: pthread_cond_t())
            pthread_cond_init(condition, nil)
            self.condition = condition
        } else {
            self.condition = nil
        }
    }

    deinit {
        if let condition {
            pthread_cond_destroy(condition)
            condition.deinitialize(count: 1)
            condition.deallocate()
        }
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    func lock() {
        pthread_mutex_lock(mutex)
    }

    func unlock() {
        pthread_mutex_unlock(mutex)
    }

    /// Releases the lock, sleeps until ``broadcast()``, then takes the lock again.
    ///
    /// Callers re-check their condition in a loop: wake-ups can be spurious.
    /// Only for a lock made with `waitable: true`; on any other it returns at once, and the
    /// caller's loop re-checks its condition.
    func wait() {
        guard let condition else { return }
        pthread_cond_wait(condition, mutex)
    }

    func broadcast() {
        guard let condition else { return }
        pthread_cond_broadcast(condition)
    }

    @inline(__always)
    func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A value that is only ever read or written with its lock held.
///
/// A class around `Mutex`, so that one allocation holds both the value and its lock.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) {
        mutex = Mutex(value)
    }

    @inline(__always)
    func withLock<Result: Sendable, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try mutex.withLock { value throws(Failure) -> Result in try body(&value) }
    }
}

/// A value guarded by a lock that threads can also wait on: the creation coordinator's.
///
/// This is Graft's one `@unchecked Sendable` type. It is sound because `value` is private and
/// every access goes through ``withLock(_:)`` or ``waitUntil(_:)``, which hold `lock` for the
/// whole access, so no two threads touch `value` at once; and `Value` is `Sendable`, so what
/// leaves the closure may cross threads. The lock itself is never handed out.
final class WaitableLocked<Value: Sendable>: @unchecked Sendable {
    private let lock = Lock(waitable: true)
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    @inline(__always)
    func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// Runs `body` with the lock held, and again after each ``broadcast()`` while it returns nil.
    ///
    /// Used by a thread that must block until another thread finishes creating an instance.
    func waitUntil<Result>(_ body: (inout Value) -> Result?) -> Result {
        lock.lock()
        defer { lock.unlock() }
        while true {
            if let result = body(&value) {
                return result
            }
            lock.wait()
        }
    }

    /// Wakes every thread blocked in ``waitUntil(_:)``.
    func broadcast() {
        lock.lock()
        lock.broadcast()
        lock.unlock()
    }
}
