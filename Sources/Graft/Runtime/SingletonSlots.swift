import Synchronization

/// The root container's shared instances, one write-once slot each, read with one atomic load.
///
/// Each slot holds the address of a retained ``InstanceCell`` (or zero). Publishing is a single
/// compare-and-exchange from zero with release ordering; reading is an acquire load, so a reader
/// that sees the address also sees the fully built instance. Slots are never cleared while the
/// container lives; `deinit` releases the boxes.
@usableFromInline
final class SingletonSlots: @unchecked Sendable {
    // `@unchecked Sendable` is sound: `storage` is allocated in `init`, freed in `deinit`, and in
    // between every access to its words is an atomic operation (`Atomic`), so concurrent
    // readers and writers never race. The boxes it points at are `Sendable`.
    private let storage: UnsafeMutablePointer<Atomic<UInt>>
    private let count: Int

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
                Unmanaged<InstanceStorage>.fromOpaque(pointer).release()
            }
        }
        storage.deinitialize(count: max(count, 1))
        storage.deallocate()
    }

    /// The box in `slot`, if the instance exists.
    @inline(__always)
    @usableFromInline
    func box(_ slot: Int) -> InstanceCell? {
        let address = storage[slot].load(ordering: .acquiring)
        guard let pointer = UnsafeRawPointer(bitPattern: address) else { return nil }
        return InstanceCell(storage: Unmanaged<InstanceStorage>.fromOpaque(pointer).takeUnretainedValue())
    }

    /// The address of the box in `slot`, or `nil` while the slot is empty.
    @usableFromInline
    func address(_ slot: Int) -> UnsafeRawPointer? {
        UnsafeRawPointer(bitPattern: storage[slot].load(ordering: .acquiring))
    }

    /// Publishes `box` in `slot` unless another instance got there first; returns the winner.
    func publish(_ candidate: InstanceCell, in slot: Int) -> InstanceCell {
        let pointer = Unmanaged.passRetained(candidate.storage).toOpaque()
        let address = UInt(bitPattern: pointer)
        let exchanged = storage[slot]
            .compareExchange(expected: 0, desired: address, ordering: .acquiringAndReleasing).exchanged
        if exchanged { return candidate }
        Unmanaged<InstanceStorage>.fromOpaque(pointer).release()
        return box(slot) ?? candidate
    }
}
