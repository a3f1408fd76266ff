/// The frozen result of `build()`: every registration as a linked ``Entry``, and the indexes
/// resolving uses.
///
/// A table never changes once built, so every thread reads it without a lock. Containers made
/// by `overriding` get their own table but share the ``Registration`` values.
@usableFromInline
final class RegistrationTable: Sendable {
    /// The linked graph this table was frozen from, kept for `overriding` and the graph export.
    let graph: DependencyGraph
    @usableFromInline let entries: [Entry]
    /// The winning (last) entry for each unnamed type.
    @usableFromInline let unnamed: TypeTable
    /// The winning (last) entry for each named key.
    @usableFromInline let named: [ServiceKey: Entry]
    /// The buffer every entry's ``Entry/plainTargetsAddress`` points into.
    private let plainTargets: PlainTargets
    let singletonSlotCount: Int
    /// Whether any registration has the `.graph` lifetime.
    let hasGraphLifetime: Bool
    let requirements: [ModuleRequirement]
    let problemReporter: @Sendable (GraftError) -> Void

    /// Freezes `graph`, which linking made and validation accepted.
    init(
        graph: DependencyGraph,
        requirements: [ModuleRequirement],
        problemReporter: @escaping @Sendable (GraftError) -> Void
    ) {
        self.graph = graph
        self.requirements = requirements
        self.problemReporter = problemReporter
        let registrations = graph.registrations

        var offsets: [Int] = []
        offsets.reserveCapacity(registrations.count)
        var parameterCount = 0
        for registration in registrations {
            offsets.append(parameterCount)
            parameterCount += registration.dependencies.count
        }
        let plainTargets = PlainTargets(capacity: parameterCount)

        var entries: [Entry] = []
        entries.reserveCapacity(registrations.count)
        var singletonSlots = 0
        var scopedSlots = 0
        var hasGraphLifetime = false
        for (index, registration) in registrations.enumerated() {
            var slot = -1
            switch registration.lifetime.store {
            case .rootSlot, .weakTable:
                slot = singletonSlots
                singletonSlots += 1
            case .scopeSlot:
                slot = scopedSlots
                scopedSlots += 1
            case .call:
                hasGraphLifetime = true
            case .none:
                break
            }
            entries.append(
                Entry(
                    registration: registration,
                    index: index,
                    dependencies: graph.dependencies[index],
                    links: graph.links[index],
                    plainTargetsAddress: plainTargets.address(at: offsets[index]),
                    slot: slot,
                    asyncCause: graph.asyncCauses[index]
                )
            )
        }
        plainTargets.link(entries, offsets: offsets)
        self.plainTargets = plainTargets
        self.entries = entries
        self.unnamed = TypeTable(
            graph.index.types.lazy.filter { $0.unnamedWinner >= 0 }.map { ($0.id, entries[Int($0.unnamedWinner)]) }
        )
        self.named = graph.index.named.mapValues { entries[Int($0)] }
        self.singletonSlotCount = singletonSlots
        self.hasGraphLifetime = hasGraphLifetime
    }

    var registrations: [Registration] { graph.registrations }

    @inline(__always)
    /// Every entry of a type, named or not, in registration order.
    @usableFromInline
    func entries(ofType id: ObjectIdentifier) -> [Entry] {
        graph.index.group(ofType: id).map { entries[Int($0)] }
    }

    @inlinable
    func entry(for id: ObjectIdentifier, name: String?) -> Entry? {
        guard let name else { return unnamed[id]?.takeUnretainedValue() }
        return named[ServiceKey(id: id, name: name)]
    }

    /// The winning unnamed entry for `id`, without retaining it (see ``TypeTable/values``).
    @inlinable
    func unmanagedEntry(for id: ObjectIdentifier) -> Unmanaged<Entry>? {
        unnamed[id]
    }
}

extension ServiceKey {
    /// A key for lookups only: the printed type is not needed to compare or hash.
    @usableFromInline
    init(id: ObjectIdentifier, name: String?) {
        self.id = id
        self.name = name
        self.type = Void.self
    }
}
