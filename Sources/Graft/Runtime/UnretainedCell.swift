import Synchronization

/// An ``Unretained`` reference that its holder rewrites in place through a `let`: a link between
/// objects (what a recycled frame is lent for) kept in the memory of the object it belongs to.
///
/// One word, read and written with relaxed atomic operations, which are plain loads and stores
/// on the processors Graft runs on: rewriting one costs what a `var` would, with neither a
/// run-time exclusivity check nor an unchecked one, and no two threads can tear it. What orders a
/// write before a read on another thread is the caller's: the lock it holds while it touches the
/// cell, or the hand-over of the object that holds the cell. ``Unretained``'s invariant applies
/// to what is stored: whoever stores a reference keeps its object alive for as long as the
/// reference is read.
struct UnretainedCell<Object: AnyObject>: ~Copyable {
    private let address: Atomic<UnsafeRawPointer>

    /// A cell holding `reference`.
    init(_ reference: Unretained<Object>) {
        address = Atomic(UnsafeRawPointer(reference.opaque))
    }

    /// The reference last stored.
    @inline(__always)
    func load() -> Unretained<Object> {
        // Only ever an `Object`'s address: `init` and `store` are the writers, and take one.
        Unretained(opaque: address.load(ordering: .relaxed))
    }

    /// Replaces the reference held.
    @inline(__always)
    func store(_ reference: Unretained<Object>) {
        address.store(UnsafeRawPointer(reference.opaque), ordering: .relaxed)
    }
}

/// An ``UnretainedCell`` that may hold no reference: a link that can be missing (a scope's
/// neighbour in its parent's list, a frame's parent).
struct OptionalUnretainedCell<Object: AnyObject>: ~Copyable {
    private let address: Atomic<UnsafeRawPointer?>

    /// A cell holding `reference`, or none.
    init(_ reference: Unretained<Object>? = nil) {
        address = Atomic(reference.map { UnsafeRawPointer($0.opaque) })
    }

    /// The reference last stored, if any.
    @inline(__always)
    func load() -> Unretained<Object>? {
        // Only ever an `Object`'s address: `init` and `store` are the writers, and take one.
        address.load(ordering: .relaxed).map { Unretained(opaque: $0) }
    }

    /// Replaces the reference held.
    @inline(__always)
    func store(_ reference: Unretained<Object>?) {
        address.store(reference.map { UnsafeRawPointer($0.opaque) }, ordering: .relaxed)
    }
}

/// Sound as ``Unretained``'s own conformance: the cell holds an address, which no two threads
/// can tear (it is atomic), and what may cross threads is decided by `Object`.
extension UnretainedCell: @unchecked Sendable where Object: Sendable {}

/// Sound as ``UnretainedCell``'s.
extension OptionalUnretainedCell: @unchecked Sendable where Object: Sendable {}
