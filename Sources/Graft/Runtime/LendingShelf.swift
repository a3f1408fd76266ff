/// Objects that one thread lends out again and again (the resolvers handed to closure
/// factories): taken from the shelf when lent and put back when they come back unshared, so
/// lending one costs no allocation.
///
/// Each thread has its own shelf (``forThisThread``) and only that thread touches it, so it
/// needs no lock. The shelf owns what is on it: one retain per object, taken over by whoever
/// takes the object.
final class LendingShelf {
    /// More objects than one thread usually has out at once; a thread that lends more makes
    /// the rest, which are released when they come back.
    static let capacity = 16

    private let slots: UnsafeMutablePointer<Unmanaged<AnyObject>>
    /// Unchecked exclusivity: only the shelf's own thread touches it, one call at a time.
    @exclusivity(unchecked) private var count = 0

    private init() {
        slots = .allocate(capacity: Self.capacity)
    }

    deinit {
        for index in 0..<count { slots[index].release() }
        slots.deallocate()
    }

    /// This thread's shelf, unretained: the thread keeps it until it exits, so a caller on this
    /// thread may use it for as long as its own call lasts.
    static var forThisThread: Unmanaged<LendingShelf> {
        Unmanaged.fromOpaque(perThread.object.toOpaque())
    }

    private static let perThread = ThreadLocalObject { LendingShelf() }

    /// An object put back earlier, now the caller's; `nil` when the shelf is empty.
    @inline(__always)
    func take() -> AnyObject? {
        guard count > 0 else { return nil }
        count -= 1
        return slots[count].takeRetainedValue()
    }

    /// Keeps `object` for a later ``take()``, unless the shelf is full.
    @inline(__always)
    func put(_ object: AnyObject) {
        guard count < Self.capacity else { return }
        slots[count] = Unmanaged.passRetained(object)
        count += 1
    }
}
