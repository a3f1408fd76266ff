#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Android)
import Android
#endif

/// A per-thread slot for an object that the code which puts it there keeps alive: what a
/// synchronous creation under way records, without the allocation a task-local value costs
/// outside a task.
///
/// The slot holds the object unretained. ``with(_:_:)`` is the only way to set it, and keeps the
/// object alive and the slot set for exactly the duration of its body, restoring the previous
/// value after, so a reader on the same thread never sees a released object.
///
/// Not generic: code that is not specialized would look up the run-time type of `Object?` on
/// every call.
@usableFromInline
final class ThreadSlot: Sendable {
    private let key: pthread_key_t

    init() {
        var key = pthread_key_t()
        // Fails only when the process has used up its thread-specific keys; Graft makes one.
        pthread_key_create(&key, nil)
        self.key = key
    }

    /// The object the innermost `with` on this thread put here, if any.
    var value: AnyObject? {
        guard let pointer = pthread_getspecific(key) else { return nil }
        return Unmanaged<AnyObject>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Runs `body` with `object` in this thread's slot.
    func with<Result, Failure: Error>(
        _ object: AnyObject?,
        _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, object.map { Unmanaged.passUnretained($0).toOpaque() })
        defer {
            pthread_setspecific(key, previous)
            withExtendedLifetime(object) {}
        }
        return try body()
    }
}
