import Graft

// A small graph with a start-up order: Picker → Shelf → Catalog (transient, no hooks) → Warehouse.
// Each service writes to the test's log when it is disposed, so a test sees stop hooks and
// disposal in one order.

/// The bottom of the graph: what everything else needs first.
final class Warehouse: AsyncDisposable {
    let log: EventLog
    init(log: EventLog) { self.log = log }
    func dispose() async { log.append("dispose Warehouse") }
}

/// A transient in the middle, with no hooks: the order must see through it.
struct Catalog: Sendable {
    let warehouse: Warehouse
}

final class Shelf: AsyncDisposable {
    let catalog: Catalog
    init(catalog: Catalog) { self.catalog = catalog }
    func dispose() async { catalog.warehouse.log.append("dispose Shelf") }
}

final class Picker: Sendable {
    let shelf: Shelf
    init(shelf: Shelf) { self.shelf = shelf }
}

extension ContainerBuilder {
    /// Registers the graph: Warehouse, Catalog (transient), Shelf and Picker, singletons.
    mutating func registerLifecycleGraph(_ log: EventLog) {
        register(Warehouse.self, lifetime: .singleton) { _ in Warehouse(log: log) }
        register(Catalog.self, using: Catalog.init(warehouse:))
        register(Shelf.self, lifetime: .singleton, using: Shelf.init(catalog:))
        register(Picker.self, lifetime: .singleton, using: Picker.init(shelf:))
    }

    /// Adds a start and a stop hook to each of `types` that logs "start X" and "stop X".
    mutating func logStartAndStop<Service: Sendable>(_ type: Service.Type, _ log: EventLog) {
        onStart(type) { _ in log.append("start \(Service.self)") }
        onStop(type) { _ in log.append("stop \(Service.self)") }
    }
}
