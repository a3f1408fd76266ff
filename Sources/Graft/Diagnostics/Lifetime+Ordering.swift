/// How messages explain that one lifetime outlives another (the order itself is the lifetime
/// table's ``Lifetime/Kind/rank``).
extension Lifetime.Kind {
    /// Why a `holder` instance cannot keep a `captive` one: the first words of a
    /// captive-dependency hint.
    static func outlives(_ holder: Lifetime.Kind, _ captive: Lifetime.Kind) -> String {
        outlives(holder, holder.description, captive.description)
    }

    /// ``outlives(_:_:)`` with the lifetimes as messages spell them, `.scoped(in: Session)`
    /// included.
    static func outlives(_ holder: Lifetime.Kind, _ holderLabel: String, _ captiveLabel: String) -> String {
        holder == .weak
            ? "a .weak instance is shared by every scope and call while anything holds it, so it outlives "
                + "each \(captiveLabel) instance"
            : "a \(holderLabel) outlives each \(captiveLabel) instance"
    }
}
