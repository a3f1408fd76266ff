/// A registration as one built table holds it: linked to the entries of its dependencies.
///
/// Entries are created once by `build()` and never change, so resolving reads them without a
/// lock and follows `links` (indexes into the table) instead of hashing a key per dependency.
@usableFromInline
final class Entry: Sendable {
    @usableFromInline let key: ServiceKey
    /// Position in the table, which is registration order.
    @usableFromInline let index: Int
    @usableFromInline let lifetime: Lifetime
    @usableFromInline let kind: FactoryKind
    @usableFromInline let maker: any ServiceMaking
    @usableFromInline let dependencies: [Dependency]
    /// For each dependency, the index of the entry that answers it, or `-1` when none does
    /// (an unregistered optional).
    @usableFromInline let links: [Int]
    /// Where this entry's parameters start in its table's ``PlainTargets``, as an address: a
    /// plain integer, so reading it touches no reference count (see ``ArgumentCursor``). The
    /// buffer lives as long as the table, which outlives every resolve that reads it.
    @usableFromInline let plainTargetsAddress: UInt
    @usableFromInline let activations: [Activation]
    /// Index into the container's singleton slots or a scope's instance slots; `-1` otherwise.
    @usableFromInline let slot: Int
    /// The entry whose async factory makes this one need `await`; `nil` when it needs none.
    @usableFromInline let asyncCause: Int?
    /// Whether this is an `instance:` registration, which is never created or shared anew.
    @usableFromInline let isInstance: Bool
    /// For aliases, the entry whose instance this one answers with.
    @usableFromInline let aliasTarget: Int?
    @usableFromInline let source: SourceLocation

    /// Whether the registered type is a class, so `type(of:)` finds an instance's own type.
    @usableFromInline let producesClass: Bool
    /// Whether the root container keeps the instance (`.singleton`, `.eagerSingleton`).
    @usableFromInline let isRootOwned: Bool
    /// Whether any activation hook runs on new instances.
    @usableFromInline let hasActivations: Bool

    init(
        registration: Registration,
        index: Int,
        links: [Int],
        plainTargetsAddress: UInt,
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
        self.plainTargetsAddress = plainTargetsAddress
        self.activations = registration.activations
        self.hasActivations = !registration.activations.isEmpty
        self.isRootOwned = registration.lifetime.isRootOwned && !registration.kind.isInstance
        self.producesClass = registration.maker.producesClass
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

    @usableFromInline var needsAwait: Bool { asyncCause != nil }
}
