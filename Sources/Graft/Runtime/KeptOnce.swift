import Synchronization

/// A strong reference its holder sets at most once, through a `let`, and releases when the
/// holder goes: what a recycled object keeps alive once it turns out to outlive its loan.
///
/// One word: the address of the retained object, or zero. Setting it is an exchange from zero
/// with release ordering, so a second set, were there one, would release its own object rather
/// than leak or replace the first; the holder's `deinit`, which runs after the last release of
/// the holder (itself ordered after every use), releases the object.
///
/// The invariant, written once here: **a nonzero word is one retain this value owns**, taken
/// by ``keep(_:)`` and given back exactly once, in `deinit`.
struct KeptOnce<Object: AnyObject & Sendable>: ~Copyable, Sendable {
    private let address = Atomic<UInt>(0)

    init() {}

    /// Keeps `object` alive for as long as this value, unless an object is kept already.
    func keep(_ object: consuming Object) {
        let retained = Unmanaged.passRetained(consume object)
        let (exchanged, _) = address.compareExchange(
            expected: 0,
            desired: UInt(bitPattern: retained.toOpaque()),
            ordering: .releasing
        )
        if !exchanged { retained.release() }
    }

    deinit {
        let word = address.load(ordering: .acquiring)
        guard let pointer = UnsafeRawPointer(bitPattern: word) else { return }
        Unmanaged<Object>.fromOpaque(pointer).release()
    }
}
