/// A created instance, boxed so that it can be published, cached and handed around untyped:
/// one type for every service type, with the value in the storage object's own tail memory.
///
/// A generic box class would need its run-time metadata looked up (and, the first time, built)
/// for every service type, wherever code that is not specialized makes or reads one; this one
/// has one metadata record for all.
///
/// `@unchecked Sendable` is sound: the value is written once, in ``make(_:)``, before the cell
/// is shared, and only read afterwards; it was `Sendable` when stored, and is only read back as
/// the type it was stored as (the caller's entry answers for that type; see `Fence.swift`).
@usableFromInline
struct InstanceCell: @unchecked Sendable {
    @usableFromInline let storage: InstanceStorage

    @usableFromInline
    init(storage: InstanceStorage) {
        self.storage = storage
    }

    /// A cell holding `value`.
    @usableFromInline
    static func make<Service: Sendable>(_ value: Service) -> InstanceCell {
        InstanceCell(storage: InstanceStorage.make(value))
    }

    /// The value, which the caller knows is a `Service`.
    @inlinable
    func value<Service: Sendable>(as type: Service.Type = Service.self) -> Service {
        storage.value(as: type)
    }
}

/// The object behind an ``InstanceCell``: the value's type in the header, the value in the
/// elements, in one allocation.
@usableFromInline
final class InstanceStorage: ManagedBuffer<InstanceStorage.Header, SIMD2<UInt64>> {
    /// What the storage holds, so that `deinit` can destroy it.
    @usableFromInline
    struct Header {
        let type: any Sendable.Type
    }

    static func make<Service: Sendable>(_ value: Service) -> InstanceStorage {
        let stride = MemoryLayout<SIMD2<UInt64>>.stride
        let words = max(1, (MemoryLayout<Service>.size + stride - 1) / stride)
        let buffer = create(minimumCapacity: words) { _ in Header(type: Service.self) }
        // `create` makes an instance of the class it is called on.
        let storage = unsafeDowncast(buffer, to: InstanceStorage.self)
        storage.address.initializeMemory(as: Service.self, to: value)
        return storage
    }

    /// Where the value is: the elements, aligned for any type of up to 16-byte alignment.
    @inlinable
    var address: UnsafeMutableRawPointer {
        // A managed buffer never moves, so its elements' address stays valid for its lifetime.
        UnsafeMutableRawPointer(withUnsafeMutablePointerToElements { $0 })
    }

    /// The value, which the caller knows is a `Service`.
    @inlinable
    func value<Service: Sendable>(as type: Service.Type = Service.self) -> Service {
        address.assumingMemoryBound(to: Service.self).pointee
    }

    deinit {
        func destroy<Service>(_ type: Service.Type, at address: UnsafeMutableRawPointer) {
            address.assumingMemoryBound(to: Service.self).deinitialize(count: 1)
        }
        // Through the pointer rather than `header`: the property would check exclusive access at
        // run time, in the deinit of every shared instance's box.
        let type: any Sendable.Type = withUnsafeMutablePointerToHeader { $0.pointee.type }
        destroy(type, at: address)
    }
}
