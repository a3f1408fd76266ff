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
/// everything else locks through ``Locked``, or, in a scope, an ``InlineLock``.
final class Lock {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        // Initialisation fails only when the system is out of resources; there is nothing a
        // caller could do then, and the lock would be unusable, so the result is not checked.
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deinitialize(count: 1)
        condition.deallocate()
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
    func wait() {
        pthread_cond_wait(condition, mutex)
    }

    func broadcast() {
        pthread_cond_broadcast(condition)
    }
}

/// A value that is only ever read or written with its lock held.
///
/// The value and its pthread mutex share one allocation (``LockStorage``). A pthread mutex and
/// not `Synchronization.Mutex`: on Linux the latter waits in futex calls that ThreadSanitizer
/// cannot see, so every access it guards is reported as a race, and `.ci/run` runs the suite
/// under ThreadSanitizer.
///
/// `@unchecked Sendable` is sound: `storage` is private and every access to the value goes
/// through ``withLock(_:)``, which holds the mutex for the whole access, so no two threads touch
/// the value at once; and `Value` is `Sendable`, so what leaves the closure may cross threads.
struct Locked<Value: Sendable>: @unchecked Sendable {
    private let storage: LockStorage<Value>

    init(_ value: Value) {
        storage = LockStorage.make(value)
    }

    @inline(__always)
    func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        // The storage is a heap object kept alive by `self` for the whole call, and a managed
        // buffer never moves, so its pointers stay valid after the closure that lent them.
        let (value, mutex) = storage.withUnsafeMutablePointers { ($0, $1) }
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }
}

/// A value and the pthread mutex guarding it, in one allocation: the value is the header, the
/// mutex the one element, whose address never moves, as pthreads requires.
final class LockStorage<Value>: ManagedBuffer<Value, pthread_mutex_t> {
    static func make(_ value: Value) -> LockStorage<Value> {
        let buffer = create(minimumCapacity: 1) { _ in value }
        // `create` makes an instance of the class it is called on.
        let storage = unsafeDowncast(buffer, to: LockStorage<Value>.self)
        storage.withUnsafeMutablePointerToElements { mutex in
            mutex.initialize(to: pthread_mutex_t())
            // Fails only when the system is out of resources; see `Lock.init`.
            pthread_mutex_init(mutex, nil)
        }
        return storage
    }

    deinit {
        withUnsafeMutablePointerToElements { mutex in
            pthread_mutex_destroy(mutex)
            _ = mutex.deinitialize(count: 1)
        }
    }
}

/// A value guarded by a lock that threads can also wait on: the creation coordinator's.
///
/// `@unchecked Sendable` is sound because `value` is private and
/// every access goes through ``withLock(_:)`` or ``waitUntil(_:)``, which hold `lock` for the
/// whole access, so no two threads touch `value` at once; and `Value` is `Sendable`, so what
/// leaves the closure may cross threads. The lock itself is never handed out.
final class WaitableLocked<Value: Sendable>: @unchecked Sendable {
    private let lock = Lock()
    /// Unchecked exclusivity: the lock already makes every access exclusive, and the run-time
    /// check would cost about as much as taking the lock.
    @exclusivity(unchecked) private var value: Value

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
