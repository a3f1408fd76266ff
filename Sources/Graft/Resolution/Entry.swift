/// A registration as one built table holds it: linked to the entries of its dependencies.
///
/// Entries are created once by `build()` and never change, so resolving reads them without a
/// lock and follows `links` (indexes into the table) instead of hashing a key per dependency.
final class Entry: Sendable {
    let key: ServiceKey
    /// Position in the table, which is registration order.
    let index: Int
    let lifetime: Lifetime
    let kind: FactoryKind
    let maker: any ServiceMaking
    let dependencies: [Dependency]
    /// For each dependency, the index of the entry that answers it, or `-1` when none does
    /// (an unregistered optional).
    let links: [Int]
    let activations: [Activation]
    /// Index into the container's singleton slots or a scope's instance slots; `-1` otherwise.
    let slot: Int
    /// The entry whose async factory makes this one need `await`; `nil` when it needs none.
    let asyncCause: Int?
    /// Whether this is an `instance:` registration, which is never created or shared anew.
    let isInstance: Bool
    /// For aliases, the entry whose instance this one answers with.
    let aliasTarget: Int?
    let source: SourceLocation
    let disposability = DisposabilityMemo()

    init(
        registration: Registration,
        index: Int,
        links: [Int],
        slot: Int,
        asyncCause: Int?,
        aliasTarget: Int?
    ) {
        self.key = registration.key
        self.index = index
        self.lifetime = registration.lifetime
        self.kind = registration.kind
        self.maker = registration.maker
        self.dependencies = registration.dependencies
        self.links = links
        self.activations = registration.activations
        self.slot = slot
        self.asyncCause = asyncCause
        self.aliasTarget = aliasTarget
        self.source = registration.source
        if case .instance = registration.kind {
            self.isInstance = true
        } else {
            self.isInstance = false
        }
    }

    var needsAwait: Bool { asyncCause != nil }
}
