import Synchronization

/// One write-once cell per index, each holding an object made on first use and kept for the
/// cells' whole life; read with one atomic load. A container's entries live in these, and so
/// do its singletons (the objects of their ``InstanceCell``s) and its scope creation coordinators.
///
/// Each cell holds the address of a retained object (or zero). Publishing is a
/// compare-and-exchange from zero with release ordering; reading is an acquire load, so a reader
/// that sees the address also sees the fully built object. When two threads make the same
/// object at once, one wins and the other's is released; callers make objects that are equal
/// whoever makes them.
@usableFromInline
final class LazyCells<Object: AnyObject>: @unchecked Sendable {
    // `@unchecked Sendable` is sound: `storage` is allocated in `init` and freed in `deinit`, and
    // in between every access to its words is atomic; the objects are `Sendable` entries and
    // creation coordinators, or the objects of instance cells (a `Sendable` instance, or storage
    // that is immutable once made; see `InstanceCell`), and once published
    // they never change cells, so the unretained references handed out stay valid for as long
    // as these cells live.
    private let storage: UnsafeMutablePointer<Atomic<UInt>>
    @usableFromInline let count: Int

    init(count: Int) {
        self.count = count
        storage = .allocate(capacity: max(count, 1))
        for index in 0..<max(count, 1) {
            (storage + index).initialize(to: Atomic(0))
        }
    }

    deinit {
        for index in 0..<count {
            let address = storage[index].load(ordering: .acquiring)
            if let pointer = UnsafeRawPointer(bitPattern: address) {
                Unmanaged<Object>.fromOpaque(pointer).release()
            }
        }
        storage.deinitialize(count: max(count, 1))
        storage.deallocate()
    }

    /// The object in cell `index`, unretained, if it has been made.
    @usableFromInline
    func load(_ index: Int) -> Unretained<Object>? {
        let address = storage[index].load(ordering: .acquiring)
        guard let pointer = UnsafeRawPointer(bitPattern: address) else { return nil }
        // The cells keep their objects for as long as they live.
        return Unretained(opaque: pointer)
    }

    /// The address of the object in cell `index`, or `nil` while the cell is empty: for reading
    /// it borrowed, with no reference count changing hands.
    @usableFromInline
    func address(_ index: Int) -> UnsafeRawPointer? {
        UnsafeRawPointer(bitPattern: storage[index].load(ordering: .acquiring))
    }

    /// Where the cells are, for ``address(in:_:)``: valid for as long as these cells live.
    var baseAddress: UnsafeRawPointer { UnsafeRawPointer(storage) }

    /// ``address(_:)`` of cell `index` of the cells at `base` (a ``baseAddress``), for a reader
    /// that holds the address, not the cells, and knows they outlive its read.
    @inline(__always)
    static func address(in base: UnsafeRawPointer, _ index: Int) -> UnsafeRawPointer? {
        let storage = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Atomic<UInt>.self))
        return UnsafeRawPointer(bitPattern: storage[index].load(ordering: .acquiring))
    }

    /// Publishes `object` in cell `index` unless another got there first; returns the winner.
    ///
    /// `object` is consumed: the caller's reference becomes the cell's, rather than the cell
    /// retaining the object and the caller releasing its own.
    func publish(_ object: consuming Object, at index: Int) -> Unretained<Object> {
        // `consume` ends the caller's reference right where the cell's begins, so the retain and
        // the release cancel out; without it the release would come after the exchange, an
        // atomic operation that reference-count optimization cannot move across.
        let candidate = Unmanaged.passRetained(consume object)
        let address = UInt(bitPattern: candidate.toOpaque())
        let (exchanged, existing) = storage[index]
            .compareExchange(expected: 0, desired: address, ordering: .acquiringAndReleasing)
        // The cells keep the winner for as long as they live.
        if exchanged { return Unretained(candidate) }
        candidate.release()
        // `existing` is nonzero: the exchange failed only because a cell held an object.
        return Unretained(opaque: UnsafeRawPointer(bitPattern: existing).unsafelyUnwrapped)
    }
}
