/// Lifetimes ordered by how long their instances live: what the captive-dependency check at
/// `build()` and the one made while resolving compare, and how their messages explain it.
extension Lifetime.Kind {
    /// How long an instance lives, longest first; a dependency on a shorter-lived one is captive.
    var rank: Int {
        switch self {
        case .singleton, .eagerSingleton: 3
        case .scoped: 2
        case .graph: 1
        case .transient, .weak: 0
        }
    }

    /// How long an instance may be kept by what it holds, for the captive check: a `.weak`
    /// instance is shared by every scope and call while anything holds it (a singleton, say), so
    /// it may hold only what lives as long as a singleton.
    var holdingRank: Int { self == .weak ? Lifetime.Kind.singleton.rank : rank }

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
