/// Objects of one class that one thread lends out again and again (the resolvers handed to
/// closure factories): taken from the shelf when lent and put back when they come back unshared,
/// so lending one costs no allocation.
///
/// Each thread has its own shelf (``PerThreadShelves``) and only that thread touches it, so it
/// needs no lock. The shelf owns what is on it: one retain per object, taken over by whoever
/// takes the object. Typed by the class it holds, so what ``take()`` hands out is an `Object`
/// because only an `Object` could be put there: no cast.
final class LendingShelf<Object: AnyObject> {
    /// More objects than one thread usually has out at once; a thread that lends more makes
    /// the rest, which are released when they come back.
    static var capacity: Int { 16 }

    /// The objects on the shelf: the first `count` are initialized, each holding the shelf's
    /// one strong reference. Moved in by ``put(_:on:)`` and out by ``take()``, so lending an
    /// object and taking it back changes no reference count.
    private let slots: UnsafeMutablePointer<Object>
    /// Unchecked exclusivity: only the shelf's own thread touches it, one call at a time.
    @exclusivity(unchecked) private var count = 0

    fileprivate init() {
        slots = .allocate(capacity: Self.capacity)
    }

    deinit {
        slots.deinitialize(count: count)
        slots.deallocate()
    }

    /// An object put back earlier, now the caller's; `nil` when the shelf is empty.
    @inline(__always)
    func take() -> Object? {
        guard count > 0 else { return nil }
        count -= 1
        return (slots + count).move()
    }

    /// Keeps `object` on `shelf` for a later ``take()``, unless the shelf is full: the caller's
    /// reference moves onto the shelf.
    @inline(__always)
    static func put(_ object: consuming Object, on shelf: Unretained<LendingShelf>) {
        guard let slot = shelf.with({ $0.reserveSlot() }) else { return }
        slot.initialize(to: object)
    }

    /// The next free slot, counted as taken, which the caller initializes; `nil` when full.
    @inline(__always)
    private func reserveSlot() -> UnsafeMutablePointer<Object>? {
        guard count < Self.capacity else { return nil }
        defer { count += 1 }
        return slots + count
    }
}

/// Each thread's ``LendingShelf`` of `Object`s, made the first time the thread asks and released
/// when it exits. A `static let` of its user's, one per class lent.
final class PerThreadShelves<Object: AnyObject>: Sendable {
    /// Only ever holds a `LendingShelf<Object>`: this closure makes every object it holds, and
    /// the key is this instance's alone.
    private let perThread = ThreadLocalObject { LendingShelf<Object>() }

    init() {}

    /// This thread's shelf, unretained: the thread keeps it until it exits, so a caller on this
    /// thread may use it for as long as its own call lasts.
    ///
    /// `noasync`: a shelf is its thread's alone, and an asynchronous function may resume on
    /// another thread.
    @available(*, noasync)
    @inline(__always)
    var forThisThread: Unretained<LendingShelf<Object>> {
        // A `LendingShelf<Object>` (see `perThread`).
        Unretained(opaque: perThread.object.toOpaque())
    }
}
