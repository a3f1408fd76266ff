/// A factory the user gave, kept as its own two words whatever its type, so that a recipe can
/// hold it as it is instead of wrapping it in a closure of its own: one allocation less for
/// each registration.
///
/// Soundness (the fence's invariant, see `Fence.swift`): a holder is a struct whose only stored
/// property is one Swift closure (two words: a function, and its reference-counted context or
/// none), declared with the factory's generic type, so its layout is the same whatever the
/// service type is. ``init(_:)`` takes such a holder, and ``unerased(as:)`` is asked only for
/// the holder of the type the `register` call that erased it registered (see
/// `Recipe.closure(running:for:)`), which is the holder's own type. In between, ``held`` is that closure seen as
/// another closure type of the same two words: it is never called, only copied and released
/// with its recipe, which retains and releases the context exactly as the original closure
/// would. `unsafeBitCast` checks the sizes.
@usableFromInline
struct ErasedFactory: Sendable {
    /// The factory's two words. Never called as this type.
    @usableFromInline let held: @Sendable () -> Void

    /// Erases `holder`, a struct of one closure (see the invariant above).
    @inlinable
    @inline(__always)
    init<Holder: Sendable>(_ holder: Holder) {
        self = unsafeBitCast(holder, to: ErasedFactory.self)
    }

    /// The holder this was made from; `type` must be that holder's own type.
    @inline(__always)
    func unerased<Holder: Sendable>(as type: Holder.Type) -> Holder {
        unsafeBitCast(self, to: Holder.self)
    }
}
