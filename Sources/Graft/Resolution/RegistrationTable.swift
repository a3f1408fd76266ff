/// The frozen result of `build()`: every registration as a linked ``Entry``, and the indexes
/// resolving uses.
///
/// A table never changes once built, so every thread reads it without a lock. Containers made
/// by `overriding` get their own table but share the ``Registration`` values.
@usableFromInline
final class RegistrationTable: Sendable {
    /// The linked graph this table was frozen from.
    let graph: DependencyGraph
    /// The entries, each made the first time something resolves its registration: a container
    /// of 30,000 services pays at start-up only for those it uses.
    @usableFromInline let cells: LazyCells<Entry>
    let requirements: [ModuleRequirement]
    let problemReporter: @Sendable (GraftError) -> Void
    /// Whether any registration has the `.graph` lifetime.
    let hasGraphLifetime: Bool
    /// The registrations declared with `registerScopeValue`, whose slots a child scope copies
    /// from its parent.
    let scopeValueSlots: [Int]
    /// What the builder was given to observe the container; `nil` when nothing observes it.
    let observers: Observers?
    /// `observers != nil`, a plain flag: a scope reads it when it is made.
    let isObserved: Bool
    /// For a child container, its parent: what it resolves when this table has no entry.
    @usableFromInline let parent: ParentLink?

    /// Freezes `graph`, which linking made and validation accepted.
    init(
        graph: DependencyGraph,
        requirements: [ModuleRequirement],
        problemReporter: @escaping @Sendable (GraftError) -> Void,
        observers: Observers? = nil,
        parent: ParentLink? = nil
    ) {
        self.observers = observers
        self.isObserved = observers != nil
        self.parent = parent
        self.graph = graph
        self.requirements = requirements
        self.problemReporter = problemReporter
        self.cells = LazyCells(count: graph.count)
        self.hasGraphLifetime = graph.registrations.indices.contains { graph.registrations[$0].lifetime.store == .call }
        self.scopeValueSlots = graph.registrations.indices.filter { graph.registrations[$0].kind == .scopeValue }
    }

    var registrations: [Registration] { graph.registrations }

    /// How many registrations, and so entries and shared-instance slots, the table has.
    var count: Int { graph.count }

    /// The entry of registration `index`, unretained: the table keeps it as long as it lives.
    @inlinable
    func entry(at index: Int) -> Unretained<Entry> {
        cells.load(index) ?? makeEntry(index)
    }

    @usableFromInline
    func makeEntry(_ index: Int) -> Unretained<Entry> {
        cells.publish(Entry.make(graph: graph, index: index, isObserved: observers != nil), at: index)
    }

    /// The entries, by registration index.
    @usableFromInline var entries: Entries { Entries(table: self) }

    /// Every entry of a type, named or not, in registration order.
    @usableFromInline
    func entries(ofType id: ObjectIdentifier) -> [Entry] {
        graph.index.group(ofType: id).map { entries[Int($0)] }
    }

    @usableFromInline
    func entry(for id: ObjectIdentifier, name: String?) -> Entry? {
        guard let index = graph.index.winner(for: ServiceKey(id: id, name: name)) else { return nil }
        return entries[index]
    }

    /// The index of the winning unnamed registration for `id`.
    @usableFromInline
    func unnamedIndex(for id: ObjectIdentifier) -> Int? {
        graph.index.unnamedWinner(for: id)
    }

    /// The entries by registration index, each made on first access.
    @usableFromInline
    struct Entries {
        let table: RegistrationTable

        @usableFromInline
        subscript(index: Int) -> Entry {
            table.entry(at: index).object
        }
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
