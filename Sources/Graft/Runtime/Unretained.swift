/// A reference that does not keep its object alive: making one retains nothing, dropping one
/// releases nothing, and reading through one borrows the object (+0).
///
/// The engine's hot paths pass around objects that every thread resolving from a container
/// shares (the root scope, the container's core, the table's entries, each thread's shelf of
/// frames). A strong reference would retain and release them on every resolve, writes to cache
/// lines that every core then fights over; an `Unretained` touches no reference count.
///
/// The invariant, written once here: **whoever makes an `Unretained` guarantees that the object
/// outlives every use of it** (and of its copies). Each place that makes one says in one line
/// who keeps the object alive meanwhile. Reading one whose object has gone is undefined
/// behaviour, not an error; code outside this fence uses this type, never `Unmanaged`, so that
/// every such reference is made in a place that states its keeper.
@usableFromInline
struct Unretained<Object: AnyObject> {
    @usableFromInline let reference: Unmanaged<Object>

    /// Refers to `object` without retaining it; the caller keeps it alive (see the type).
    ///
    /// `object` is borrowed (`__shared`): an initializer owns its arguments by default, so the
    /// caller would retain it only for this initializer to release it.
    @inlinable @inline(__always)
    init(_ object: __shared Object) {
        reference = .passUnretained(object)
    }

    /// Wraps a reference that fence code already holds unretained (a cell, a thread's object).
    @inlinable @inline(__always)
    init(_ reference: Unmanaged<Object>) {
        self.reference = reference
    }

    /// Calls `body` with the object borrowed: no reference count changes hands.
    ///
    /// Untyped `rethrows`, as the borrowing call underneath: a typed-throws `body` would be
    /// converted through a thunk in code that is not specialized (measured: about 2
    /// instructions per autowired dependency). A caller with typed throws unboxes the error
    /// (`GraftError.wrapping`) on its way out, off the path that succeeds.
    @inlinable @inline(__always)
    func with<Result>(_ body: (Object) throws -> Result) rethrows -> Result {
        try reference._withUnsafeGuaranteedRef(body)
    }

    /// The object, as a strong reference of the caller's (retained while the caller holds it).
    @inlinable @inline(__always)
    var object: Object { reference.takeUnretainedValue() }

    /// The object's address, for a record that keeps it as a plain pointer (tagged, say).
    @inlinable @inline(__always)
    var opaque: UnsafeMutableRawPointer { reference.toOpaque() }

    /// The reference whose address is `opaque` (an ``opaque`` read back).
    @inlinable @inline(__always)
    init(opaque: UnsafeRawPointer) {
        reference = .fromOpaque(opaque)
    }

    /// The same reference, to an object of any class.
    @inlinable @inline(__always)
    var erased: Unretained<AnyObject> { Unretained<AnyObject>(opaque: opaque) }
}

/// Sound as `Unmanaged`'s own conformance: the reference is an address, and what may cross
/// threads is decided by `Object`.
extension Unretained: Sendable where Object: Sendable {}
