import Atomics

/// Remembers, for each entry of a table, whether instances of the type it last produced need
/// disposal, so creating a transient does not pay for two protocol-conformance casts each time.
///
/// One word per entry, all in one allocation: the produced type's metadata address with the
/// answer in its low bits (metadata is at least 8-byte aligned). A race between two threads
/// only costs one extra check.
@usableFromInline
final class DisposabilityMemo: @unchecked Sendable {
    // `@unchecked Sendable` is sound: `storage` is allocated in `init`, freed in `deinit`, and in
    // between every access to its words is an atomic operation (`UnsafeAtomic`).
    private let storage: UnsafeMutablePointer<UnsafeAtomic<UInt>.Storage>
    private let count: Int
    private static let notDisposable: UInt = 1
    private static let disposable: UInt = 2

    init(count: Int) {
        self.count = max(count, 1)
        storage = .allocate(capacity: self.count)
        storage.initialize(repeating: UnsafeAtomic<UInt>.Storage(0), count: self.count)
    }

    deinit {
        storage.deinitialize(count: count)
        storage.deallocate()
    }

    /// Whether instances of `type` made by entry `index` are known to need no disposal.
    @usableFromInline
    func isKnownNotDisposable(_ index: Int, _ type: ObjectIdentifier) -> Bool {
        UnsafeAtomic(at: storage + index).load(ordering: .relaxed) == UInt(bitPattern: type) | Self.notDisposable
    }

    /// What the owner must dispose for `value`, of dynamic type `type`, or `nil`; remembers the answer.
    @usableFromInline
    func record<Service: Sendable>(
        for value: Service,
        of type: ObjectIdentifier,
        entry index: Int,
        key: ServiceKey
    ) -> DisposalRecord? {
        let record = DisposalRecord(value, key: key)
        let answer = UInt(bitPattern: type) | (record == nil ? Self.notDisposable : Self.disposable)
        UnsafeAtomic(at: storage + index).store(answer, ordering: .relaxed)
        return record
    }
}
