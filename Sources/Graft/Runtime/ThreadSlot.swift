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
///
/// The pointer lives in one word of memory per thread, which the thread's key names: made the
/// first time the thread sets the slot, freed when the thread exits. Setting and restoring the
/// slot are then two plain stores; `pthread_setspecific` twice cost about 70 instructions in every
/// singleton or scoped creation.
@usableFromInline
final class ThreadSlot: Sendable {
    private let key: pthread_key_t

    init() {
        var key = pthread_key_t()
        // Fails only when the process has used up its thread-specific keys; Graft makes a few.
        pthread_key_create(&key, freeThreadSlotWord)
        self.key = key
    }

    /// The pointer the innermost `with` on this thread put here, if any.
    ///
    /// `noasync`: what it names lives in a frame of this thread, which an asynchronous
    /// function may outlive (it can resume on another thread after a suspension).
    @available(*, noasync)
    func read() -> UnsafeRawPointer? {
        guard let word = pthread_getspecific(key) else { return nil }
        return word.assumingMemoryBound(to: UnsafeRawPointer?.self).pointee
    }

    /// This thread's word, made the first time the thread asks; only this thread reads or
    /// writes it, and it stays in place until the thread exits.
    private var word: UnsafeMutablePointer<UnsafeRawPointer?> {
        if let word = pthread_getspecific(key) { return word.assumingMemoryBound(to: UnsafeRawPointer?.self) }
        let word = UnsafeMutablePointer<UnsafeRawPointer?>.allocate(capacity: 1)
        word.initialize(to: nil)
        pthread_setspecific(key, word)
        return word
    }

    /// Runs `body` with `record`'s address in this thread's slot, for a caller that passes a
    /// variable of its own (`&record`): its address stays valid for the whole call. `body` is
    /// given the address, which is what the slot holds while it runs but for nested `with`s.
    @inline(__always)
    func with<Record, Result, Failure: Error>(
        _ record: UnsafePointer<Record>,
        _ body: (UnsafeRawPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let address = UnsafeRawPointer(record)
        return try with(address) { () throws(Failure) -> Result in try body(address) }
    }

    /// Runs `body` with `pointer` in this thread's slot; the caller keeps what it points at alive
    /// and in place until `body` returns.
    @inline(__always)
    func with<Result, Failure: Error>(
        _ pointer: UnsafeRawPointer?,
        _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let word = self.word
        let previous = word.pointee
        word.pointee = pointer
        defer { word.pointee = previous }
        return try body()
    }
}

/// The destructor of a ``ThreadSlot``'s key: frees the thread's word, which nothing reads once
/// its thread has exited.
#if canImport(Darwin)
private func freeThreadSlotWord(_ word: UnsafeMutableRawPointer) {
    word.assumingMemoryBound(to: UnsafeRawPointer?.self).deallocate()
}
#else
private func freeThreadSlotWord(_ word: UnsafeMutableRawPointer?) {
    word?.assumingMemoryBound(to: UnsafeRawPointer?.self).deallocate()
}
#endif
