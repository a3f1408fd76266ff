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
    /// The entries grouped by type, each group in registration order; `typeRanges` says where
    /// each type's group is. One array for all types, not one per type, keeps a build of
    /// thousands of services from allocating thousands of arrays.
    private let groupedByType: [Entry]
    private let typeRanges: [ObjectIdentifier: Range<Int>]
    /// The buffer every entry's ``Entry/plainTargetsAddress`` points into.
    private let plainTargets: PlainTargets
    let singletonSlotCount: Int
    /// Whether any registration has the `.graph` lifetime.
    let hasGraphLifetime: Bool
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
        let asyncCauses = graph.asyncCauses

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
            entries.append(
                Entry(
                    registration: registration,
                    index: index,
                    dependencies: graph.dependencies[index],
                    links: graph.links[index],
                    plainTargetsAddress: plainTargets.address(at: offsets[index]),
                    slot: slot,
                    asyncCause: asyncCauses[index]
                )
            )
        }

        var unnamed: [ObjectIdentifier: Entry] = [:]
        var named: [ServiceKey: Entry] = [:]
        let namedCount = entries.reduce(0) { $0 + ($1.key.name == nil ? 0 : 1) }
        unnamed.reserveCapacity(entries.count - namedCount)
        named.reserveCapacity(namedCount)
        var typeCounts: [ObjectIdentifier: Int] = [:]
        typeCounts.reserveCapacity(entries.count)
        for entry in entries {
            if entry.key.name == nil {
                unnamed[entry.key.id] = entry
            } else {
                named[entry.key] = entry
            }
            typeCounts[entry.key.id, default: 0] += 1
        }
        plainTargets.link(entries, offsets: offsets)
        self.plainTargets = plainTargets
        self.entries = entries
        self.unnamed = TypeTable(unnamed)
        self.named = named
        var typeRanges: [ObjectIdentifier: Range<Int>] = [:]
        typeRanges.reserveCapacity(typeCounts.count)
        var start = 0
        for (id, count) in typeCounts {
            typeRanges[id] = start..<start
            start += count
        }
        var grouped = [Entry?](repeating: nil, count: entries.count)
        for entry in entries {
            let range = typeRanges[entry.key.id, default: 0..<0]
            grouped[range.upperBound] = entry
            typeRanges[entry.key.id] = range.lowerBound..<range.upperBound + 1
        }
        self.groupedByType = grouped.compactMap { $0 }
        self.typeRanges = typeRanges
        self.singletonSlotCount = singletonSlots
        self.hasGraphLifetime = registrations.contains { $0.lifetime == .graph }
        self.scopedSlotCount = scopedSlots
        self.graph = graph
    }

    /// The dependency graph `build()` validated, kept for diagnostics and export.
    let graph: DependencyGraph

    @inline(__always)
    /// Every entry of a type, named or not, in registration order.
    @usableFromInline
    func entries(ofType id: ObjectIdentifier) -> ArraySlice<Entry> {
        guard let range = typeRanges[id] else { return [] }
        return groupedByType[range]
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
