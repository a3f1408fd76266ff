/// How one registration makes instances of its type, with the type kept.
///
/// A ``Maker`` is created where the service's type is known (in `register`) and stored
/// type-erased. The key it is registered under is `Service` itself, so resolving `Service`
/// finds a `Maker<Service>` and uses it without a dynamic cast: factories return `Service`,
/// shared instances live in `InstanceBox<Service>`, and dependencies are handed over typed.
final class Maker<Service: Sendable>: ServiceMaking {
    enum Construct: Sendable {
        case instance(Service)
        case closure(@Sendable (any Resolver) throws -> Service)
        case asyncClosure(@Sendable (any Resolver) async throws -> Service)
        case autowired(@Sendable (inout ArgumentCursor, inout ResolveState) throws -> Service)
        case asyncAutowired(@Sendable (inout ArgumentCursor, inout ResolveState) async throws -> Service)
        case alias(Alias)
    }

    /// Answers with the instance of another entry, converted to `Service`.
    struct Alias: Sendable {
        let make: @Sendable (ContainerCore, Entry, inout ResolveState) throws(GraftError) -> Service
        let makeAsync: @Sendable (ContainerCore, Entry, inout ResolveState) async throws(GraftError) -> Service
    }

    let construct: Construct

    init(_ construct: Construct) {
        self.construct = construct
    }

    func makeErased(_ core: ContainerCore, _ entry: Entry, _ state: inout ResolveState) throws(GraftError) -> any Sendable {
        let service: Service = try core.make(entry, &state)
        return service
    }

    func makeErasedAsync(
        _ core: ContainerCore,
        _ entry: Entry,
        _ state: inout ResolveState
    ) async throws(GraftError) -> any Sendable {
        let service: Service = try await core.makeAsync(entry, &state)
        return service
    }

    func box(weak instance: WeakInstance) -> (any InstanceBoxing)? {
        instance.value(as: Service.self).map(InstanceBox.init)
    }
}

/// A ``Maker`` with its type erased, as registrations and entries store it.
protocol ServiceMaking: AnyObject, Sendable {
    /// The instance, as `any Sendable`: for `Optional` dependencies and wrappers whose
    /// wrapped type is not known statically.
    func makeErased(_ core: ContainerCore, _ entry: Entry, _ state: inout ResolveState) throws(GraftError) -> any Sendable

    /// The instance as `any Sendable`, awaiting what needs it.
    func makeErasedAsync(
        _ core: ContainerCore,
        _ entry: Entry,
        _ state: inout ResolveState
    ) async throws(GraftError) -> any Sendable

    /// The live instance of a weak slot, boxed as this maker's type.
    func box(weak instance: WeakInstance) -> (any InstanceBoxing)?
}

/// A created instance, boxed so that it can be published, cached and handed around untyped.
final class InstanceBox<Service: Sendable>: InstanceBoxing {
    let value: Service

    init(_ value: Service) {
        self.value = value
    }

    var erasedValue: any Sendable { value }
}

/// An ``InstanceBox`` of any type.
protocol InstanceBoxing: AnyObject, Sendable {
    var erasedValue: any Sendable { get }
}

extension InstanceBoxing {
    /// The boxed value as `Service`; the caller knows the box holds one (its entry's type).
    @inline(__always)
    func unboxed<Service: Sendable>(as type: Service.Type = Service.self) -> Service {
        unsafeDowncast(self as AnyObject, to: InstanceBox<Service>.self).value
    }
}
