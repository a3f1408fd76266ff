/// A created instance, held so that it can be published, cached and handed around untyped: one
/// type for every service type.
///
/// An instance of a class is held as itself: a reference is all it is, so it needs no box. Any
/// other value lives in an ``InstanceStorage``, with the value in the storage object's own tail
/// memory. Which of the two a cell holds follows from the service type alone
/// (``holdsInstanceItself(_:)``), so whoever reads a cell as the type it was made as reads it
/// the way it was stored.
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
    /// The instance itself, or the ``InstanceStorage`` holding it.
    @usableFromInline let object: AnyObject

    @usableFromInline
    init(object: AnyObject) {
        self.object = object
    }

    /// Whether a cell holds an instance of `Service` as itself: when `Service` is a class, whose
    /// values are one reference. Folded to a constant wherever `Service` is known.
    @inlinable
    static func holdsInstanceItself<Service>(_ type: Service.Type) -> Bool {
        MemoryLayout<Service>.size == MemoryLayout<AnyObject>.size && Service.self is AnyObject.Type
    }

    /// A cell holding `value`.
    @usableFromInline
    static func make<Service: Sendable>(_ value: Service) -> InstanceCell {
        make(value, holdingItself: holdsInstanceItself(Service.self))
    }

    /// A cell holding `value`, told what ``holdsInstanceItself(_:)`` answers for `Service`: code
    /// that is not specialized would otherwise ask the runtime each time.
    @usableFromInline
    static func make<Service: Sendable>(_ value: Service, holdingItself itself: Bool) -> InstanceCell {
        if itself { return InstanceCell(object: unsafeBitCast(value, to: AnyObject.self)) }
        return InstanceCell(object: InstanceStorage.make(value))
    }

    /// The value, which the caller knows is a `Service`.
    @inlinable
    func value<Service: Sendable>(as type: Service.Type = Service.self) -> Service {
        value(as: type, holdingItself: Self.holdsInstanceItself(Service.self))
    }

    /// The value, which the caller knows is a `Service`, told what ``holdsInstanceItself(_:)``
    /// answers for it.
    @inlinable @inline(__always)
    func value<Service: Sendable>(as type: Service.Type = Service.self, holdingItself itself: Bool) -> Service {
        if itself { return unsafeBitCast(object, to: Service.self) }
        return unsafeDowncast(object, to: InstanceStorage.self).value(as: type)
    }

    /// The value of the cell whose object is at `address`, read without retaining the object:
    /// for a slot that keeps the object as long as its reader can run.
    @inlinable @inline(__always)
    static func value<Service: Sendable>(
        at address: UnsafeRawPointer,
        as type: Service.Type,
        holdingItself itself: Bool = holdsInstanceItself(Service.self)
    ) -> Service {
        Unmanaged<AnyObject>.fromOpaque(address)._withUnsafeGuaranteedRef {
            InstanceCell(object: $0).value(as: type, holdingItself: itself)
        }
    }
}

extension InstanceCell {
    /// The value of the cell whose object is at `address`, read without retaining the object
    /// and without being told how the cell holds it: an ``InstanceStorage`` (whose identity the
    /// caller passes as `storageClass`, see ``storageClass``) is a boxed value, and any other
    /// object is the instance itself (nothing outside this file makes an `InstanceStorage`, so
    /// no service is one).
    ///
    /// For code that is not specialized, where asking `Service` whether it is a class costs a
    /// run-time type check on every read, and one look at the object's class costs less. The
    /// caller looks the storage class up once for many reads: its metadata is made at run time,
    /// so each look-up is a call.
    ///
    /// Inlined, with what it calls, into ``Construction/next(_:)``, which reads each existing
    /// dependency through it: as calls of their own they cost as much again as the read itself.
    @inlinable @inline(__always)
    static func storedValue<Service: Sendable>(
        at address: UnsafeRawPointer,
        as type: Service.Type,
        storageClass: ObjectIdentifier
    ) -> Service {
        let isStorage = Unmanaged<AnyObject>.fromOpaque(address)._withUnsafeGuaranteedRef {
            ObjectIdentifier(Swift.type(of: $0)) == storageClass
        }
        return value(at: address, as: type, holdingItself: !isStorage)
    }

    /// The identity of ``InstanceStorage``, the class of every cell's object that is not the
    /// instance itself.
    @usableFromInline
    static var storageClass: ObjectIdentifier { ObjectIdentifier(InstanceStorage.self) }
}

/// The object behind an ``InstanceCell``: the value's type in the header, the value in the
/// elements, in one allocation.
///
/// The elements are `UInt128`s for their 16-byte alignment. Not `SIMD2<UInt64>`, which has the
/// same: a generic type whose parameter must conform to a protocol, so making this class's
/// metadata would look that conformance up at run time, which the first time in a process
/// scans every conformance in it (1.3 million instructions in an app of 30,000 types).
@usableFromInline
final class InstanceStorage: ManagedBuffer<InstanceStorage.Header, UInt128> {
    /// What the storage holds, so that `deinit` can destroy it.
    @usableFromInline
    struct Header {
        let type: any Sendable.Type
    }

    static func make<Service: Sendable>(_ value: Service) -> InstanceStorage {
        let stride = MemoryLayout<UInt128>.stride
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
