/// The frozen result of `build()`: every registration as a linked ``Entry``, and the indexes
/// resolving uses.
///
/// A table never changes once built, so every thread reads it without a lock. Containers made
/// by `overriding` get their own table but share the ``Registration`` values.
@usableFromInline
final class RegistrationTable: Sendable {
    let registrations: [Registration]
    @usableFromInline let entries: [Entry]
    /// The winning (last) entry for each unnamed type.
    @usableFromInline let unnamed: TypeTable
    /// The winning (last) entry for each named key.
    @usableFromInline let named: [ServiceKey: Entry]
    /// Every entry of a type, named or not, in registration order.
    @usableFromInline let byType: [ObjectIdentifier: [Entry]]
    let singletonSlotCount: Int
    let scopedSlotCount: Int
    let requirements: [ModuleRequirement]
    let problemReporter: @Sendable (GraftError) -> Void

    init(
        registrations: [Registration],
        requirements: [ModuleRequirement],
        problemReporter: @escaping @Sendable (GraftError) -> Void
    ) {
        self.registrations = registrations
        self.requirements = requirements
        self.problemReporter = problemReporter

        var winners: [ServiceKey: Int] = [:]
        winners.reserveCapacity(registrations.count)
        for (index, registration) in registrations.enumerated() {
            winners[registration.key] = index
        }

        let graph = DependencyGraph(registrations: registrations, winners: winners)
        let asyncCauses = graph.asyncCauses()

        var entries: [Entry] = []
        entries.reserveCapacity(registrations.count)
        var singletonSlots = 0
        var scopedSlots = 0
        for (index, registration) in registrations.enumerated() {
            var slot = -1
            switch registration.lifetime {
            case .singleton, .eagerSingleton, .weak:
                slot = singletonSlots
                singletonSlots += 1
            case .scoped:
                slot = scopedSlots
                scopedSlots += 1
            case .transient, .graph:
                break
            }
            var aliasTarget: Int?
            if case .alias(let target) = registration.kind {
                aliasTarget = winners[target]
            }
            entries.append(
                Entry(
                    registration: registration,
                    index: index,
                    links: graph.links[index],
                    slot: slot,
                    asyncCause: asyncCauses[index],
                    aliasTarget: aliasTarget
                )
            )
        }

        var unnamed: [ObjectIdentifier: Entry] = [:]
        var named: [ServiceKey: Entry] = [:]
        var byType: [ObjectIdentifier: [Entry]] = [:]
        for entry in entries {
            if entry.key.name == nil {
                unnamed[entry.key.id] = entry
            } else {
                named[entry.key] = entry
            }
            byType[entry.key.id, default: []].append(entry)
        }
        self.entries = entries
        self.unnamed = TypeTable(unnamed)
        self.named = named
        self.byType = byType
        self.singletonSlotCount = singletonSlots
        self.scopedSlotCount = scopedSlots
        self.graph = graph
    }

    /// The dependency graph `build()` validated, kept for diagnostics and export.
    let graph: DependencyGraph

    @inline(__always)
    @inlinable
    func entry(for id: ObjectIdentifier, name: String?) -> Entry? {
        guard let name else { return unnamed[id] }
        return named[ServiceKey(id: id, name: name)]
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
