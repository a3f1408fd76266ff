#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Android)
import Android
#endif

/// A per-thread slot for a pointer to something that the code which puts it there keeps alive
/// and in place: what a synchronous creation under way records, without the allocation a
/// task-local value costs outside a task.
///
/// ``with(_:_:)`` is the only way to set it, and keeps the slot set for exactly the duration of
/// its body, restoring the previous value after, so a reader on the same thread never sees a
/// pointer to memory its owner has given up.
@usableFromInline
final class ThreadSlot: Sendable {
    private let key: pthread_key_t

    init() {
        var key = pthread_key_t()
        // Fails only when the process has used up its thread-specific keys; Graft makes one.
        pthread_key_create(&key, nil)
        self.key = key
    }

    /// The pointer the innermost `with` on this thread put here, if any.
    var value: UnsafeRawPointer? {
        pthread_getspecific(key).map { UnsafeRawPointer($0) }
    }

    /// Runs `body` with `record`'s address in this thread's slot, for a caller that passes a
    /// variable of its own (`&record`): its address stays valid for the whole call. `body` is
    /// given the address, which is what the slot holds while it runs but for nested `with`s.
    ///
    /// `holding` is what the slot holds now, when the caller knows it (the pointer an enclosing
    /// `with` on this thread gave its body, with no other `with` under way inside that body), or
    /// `0` when it does not: known, it spares reading the slot.
    @inline(__always)
    func with<Record, Result, Failure: Error>(
        _ record: UnsafePointer<Record>,
        holding known: UInt = 0,
        _ body: (UnsafeRawPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let address = UnsafeRawPointer(record)
        return try with(address, holding: known) { () throws(Failure) -> Result in try body(address) }
    }

    /// Runs `body` with `pointer` in this thread's slot; the caller keeps what it points at alive
    /// and in place until `body` returns. `holding`: what the slot holds now, as in the `with`
    /// above.
    @inline(__always)
    func with<Result, Failure: Error>(
        _ pointer: UnsafeRawPointer?,
        holding known: UInt = 0,
        _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let previous = known != 0 ? UnsafeMutableRawPointer(bitPattern: known) : pthread_getspecific(key)
        pthread_setspecific(key, pointer)
        defer { pthread_setspecific(key, previous) }
        return try body()
    }
}
