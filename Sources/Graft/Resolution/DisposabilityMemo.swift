import Atomics

/// Remembers whether instances of the type an entry last produced need disposal, so creating a
/// transient does not pay for two protocol-conformance casts every time.
///
/// It holds one word: the produced type's metadata address with the answer in its low bits
/// (metadata is at least 8-byte aligned). A race between two threads only costs one extra check.
@usableFromInline
final class DisposabilityMemo: Sendable {
    private static let notDisposable: UInt = 1
    private static let disposable: UInt = 2
    private let memo = ManagedAtomic<UInt>(0)

    /// Whether instances of `type` are known to need no disposal.
    @usableFromInline
    func isKnownNotDisposable(_ type: ObjectIdentifier) -> Bool {
        memo.load(ordering: .relaxed) == UInt(bitPattern: type) | Self.notDisposable
    }

    /// What the owner must dispose for `value`, of dynamic type `type`, or `nil`; remembers the answer.
    @usableFromInline
    func record<Service: Sendable>(for value: Service, of type: ObjectIdentifier, key: ServiceKey) -> DisposalRecord? {
        let record = DisposalRecord(value, key: key)
        memo.store(UInt(bitPattern: type) | (record == nil ? Self.notDisposable : Self.disposable), ordering: .relaxed)
        return record
    }
}
