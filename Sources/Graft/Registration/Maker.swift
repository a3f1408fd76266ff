/// How one registration makes instances of its type, with the type kept.
///
/// A ``Maker`` is created where the service's type is known (in `register`) and stored
/// type-erased. The key it is registered under is `Service` itself, so resolving `Service`
/// finds a `Maker<Service>` and uses it without a dynamic cast: factories return `Service`,
/// shared instances live in `InstanceBox<Service>`, and dependencies are handed over typed.
@usableFromInline
final class Maker<Service: Sendable>: ServiceMaking {
    @usableFromInline
    enum Construct: Sendable {
        case instance(Service)
        case closure(@Sendable (any Resolver) throws -> Service)
        case asyncClosure(@Sendable (any Resolver) async throws -> Service)
        case autowired(@Sendable (inout ArgumentCursor, inout ResolveState) throws -> Service)
        case asyncAutowired(@Sendable (inout ArgumentCursor, inout ResolveState) async throws -> Service)
        case alias(Alias)
    }

    /// Answers with the instance of another entry, converted to `Service`.
    @usableFromInline
    struct Alias: Sendable {
        @usableFromInline let make: @Sendable (ContainerCore, Entry, inout ResolveState) throws(GraftError) -> Service
        @usableFromInline let makeAsync:
            @Sendable (ContainerCore, Entry, inout ResolveState) async throws(GraftError) -> Service
    }

    /// Which of the fields below makes the instance.
    @usableFromInline
    enum Way: Sendable {
        case instance, closure, asyncClosure, autowired, asyncAutowired, alias
    }

    // One field per way of making, rather than the `Construct` enum, and none of them optional:
    // in generic code that is not specialized, reading an enum payload or an optional of a
    // `Service`-dependent type costs a run-time type lookup, while these closure fields sit at
    // fixed offsets. The fields the `way` does not use hold closures that are never called.
    @usableFromInline let way: Way
    @usableFromInline let autowired: @Sendable (inout ArgumentCursor, inout ResolveState) throws -> Service
    @usableFromInline let closure: @Sendable (any Resolver) throws -> Service
    @usableFromInline let asyncAutowired: @Sendable (inout ArgumentCursor, inout ResolveState) async throws -> Service
    @usableFromInline let asyncClosure: @Sendable (any Resolver) async throws -> Service
    @usableFromInline let alias: Alias?
    @usableFromInline let instance: Service?

    @usableFromInline
    init(_ construct: Construct) {
        var way = Way.instance
        var autowired: @Sendable (inout ArgumentCursor, inout ResolveState) throws -> Service = { _, _ in
            throw makerWayUnused
        }
        var closure: @Sendable (any Resolver) throws -> Service = { _ in throw makerWayUnused }
        var asyncAutowired: @Sendable (inout ArgumentCursor, inout ResolveState) async throws -> Service = { _, _ in
            throw makerWayUnused
        }
        var asyncClosure: @Sendable (any Resolver) async throws -> Service = { _ in throw makerWayUnused }
        var alias: Alias?
        var instance: Service?
        switch construct {
        case .autowired(let make):
            way = .autowired
            autowired = make
        case .closure(let make):
            way = .closure
            closure = make
        case .asyncAutowired(let make):
            way = .asyncAutowired
            asyncAutowired = make
        case .asyncClosure(let make):
            way = .asyncClosure
            asyncClosure = make
        case .alias(let target):
            way = .alias
            alias = target
        case .instance(let value):
            instance = value
        }
        self.way = way
        self.autowired = autowired
        self.closure = closure
        self.asyncAutowired = asyncAutowired
        self.asyncClosure = asyncClosure
        self.alias = alias
        self.instance = instance
    }

    @usableFromInline
    func make<Expected: Sendable>(
        _ core: ContainerCore,
        _ entry: Entry,
        _ state: inout ResolveState,
        as expected: Expected.Type
    ) throws(GraftError) -> Expected {
        // `Expected` is `Service`: the entry was linked as a dependency of type `Expected` and
        // answers for that type (see `ServiceMaking.make(_:_:_:as:)`).
        unsafeBitCast(try core.make(entry, self, &state), to: Expected.self)
    }

    @usableFromInline
    func makeErased(
        _ core: ContainerCore,
        _ entry: Entry,
        _ state: inout ResolveState
    ) throws(GraftError) -> any Sendable {
        let service: Service = try core.make(entry, &state)
        return service
    }

    @usableFromInline
    func makeErasedAsync(
        _ core: ContainerCore,
        _ entry: Entry,
        _ state: inout ResolveState
    ) async throws(GraftError) -> any Sendable {
        let service: Service = try await core.makeAsync(entry, &state)
        return service
    }

    @usableFromInline
    var producesClass: Bool { Service.self is AnyClass }

    @usableFromInline
    func box(weak instance: WeakInstance) -> (any InstanceBoxing)? {
        instance.value(as: Service.self).map(InstanceBox.init)
    }
}

/// What a placeholder closure of a ``Maker`` throws; never thrown in practice. A global, so the
/// placeholders capture nothing and cost no allocation per registration.
let makerWayUnused = GraftError(.factoryFailed, "internal: a maker was asked for a way it does not use")

/// A ``Maker`` with its type erased, as registrations and entries store it.
@usableFromInline
protocol ServiceMaking: AnyObject, Sendable {
    /// The instance as `Expected`, which must be this maker's service type.
    ///
    /// Dependencies reached from autowired initializers resolve through this requirement: the
    /// maker's own type supplies the service type, so the resolve needs no run-time lookup of
    /// generic types and no dynamic cast.
    func make<Expected: Sendable>(
        _ core: ContainerCore,
        _ entry: Entry,
        _ state: inout ResolveState,
        as expected: Expected.Type
    ) throws(GraftError) -> Expected

    /// The instance, as `any Sendable`: for `Optional` dependencies and wrappers whose
    /// wrapped type is not known statically.
    func makeErased(
        _ core: ContainerCore,
        _ entry: Entry,
        _ state: inout ResolveState
    ) throws(GraftError) -> any Sendable

    /// The instance as `any Sendable`, awaiting what needs it.
    func makeErasedAsync(
        _ core: ContainerCore,
        _ entry: Entry,
        _ state: inout ResolveState
    ) async throws(GraftError) -> any Sendable

    /// The live instance of a weak slot, boxed as this maker's type.
    func box(weak instance: WeakInstance) -> (any InstanceBoxing)?

    /// Whether the service type is a class (not a protocol or a value type).
    var producesClass: Bool { get }
}

/// A created instance, boxed so that it can be published, cached and handed around untyped.
@usableFromInline
final class InstanceBox<Service: Sendable>: InstanceBoxing {
    @usableFromInline let value: Service

    @usableFromInline
    init(_ value: Service) {
        self.value = value
    }

    @usableFromInline var erasedValue: any Sendable { value }
}

/// An ``InstanceBox`` of any type.
@usableFromInline
protocol InstanceBoxing: AnyObject, Sendable {
    var erasedValue: any Sendable { get }
}

extension InstanceBoxing {
    /// The boxed value as `Service`; the caller knows the box holds one (its entry's type).
    @inlinable
    func unboxed<Service: Sendable>(as type: Service.Type = Service.self) -> Service {
        unsafeDowncast(self as AnyObject, to: InstanceBox<Service>.self).value
    }
}
