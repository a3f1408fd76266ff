import Atomics

/// Remembers whether instances of the type an entry last produced need disposal, so creating a
/// transient does not pay for two protocol-conformance casts every time.
///
/// It holds one word: the produced type's metadata address with the answer in its low bits
/// (metadata is at least 8-byte aligned). A race between two threads only costs one extra check.
final class DisposabilityMemo: Sendable {
    private static let notDisposable: UInt = 1
    private static let disposable: UInt = 2
    private let memo = ManagedAtomic<UInt>(0)

    /// What the owner must dispose for `value`, or `nil` when `value` needs no disposal.
    @inline(__always)
    func record<Service: Sendable>(for value: Service, key: ServiceKey) -> DisposalRecord? {
        let typeBits = UInt(bitPattern: ObjectIdentifier(type(of: value as Any)))
        let known = memo.load(ordering: .relaxed)
        if known == typeBits | Self.notDisposable { return nil }
        let record = DisposalRecord(value, key: key)
        if known != typeBits | Self.disposable {
            memo.store(typeBits | (record == nil ? Self.notDisposable : Self.disposable), ordering: .relaxed)
        }
        return record
    }
}
