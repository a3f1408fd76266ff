/// How a recipe hands its instance over: the one thing the `register` overloads for a plain, a
/// ``Disposable`` and an ``AsyncDisposable`` service differ in.
///
/// Whether an instance is disposed is decided from the registered type's static conformances,
/// so that no registration pays a run-time conformance lookup (which scans every conformance in
/// the program, once per type). Only the overload whose generic signature says `Disposable` can
/// call the ``Construction`` `deliver` that records the disposal, so each overload names its
/// delivery (``plain``, ``disposable``, ``asyncDisposable``) and forwards to the one internal
/// implementation of its family (`ContainerBuilder+Families.swift`), which picks the recipe that
/// hands the instance over that way: chosen once, when registering, never at each creation.
@usableFromInline
enum Delivery<Service: Sendable>: Sendable {
    /// Nobody disposes the instance: its registered type is neither disposable kind.
    case plain
    /// Each instance is asked whether it is disposable: for a protocol (existential) type,
    /// which cannot tell, and for registrations with runtime arguments, which ask always.
    case askingTheInstance
    /// The registered type is disposable: the closure is the `deliver` its conformance picks.
    case disposing(@Sendable (inout Construction, Service) throws(GraftError) -> Void)

    /// The delivery a registration of `Service` runs: ``plain`` for a protocol type asks each
    /// instance instead, since the type cannot tell.
    @inlinable
    var forRegisteredType: Delivery {
        guard case .plain = self, isExistentialType(Service.self) else { return self }
        return .askingTheInstance
    }
}

extension Delivery where Service: Disposable {
    /// Its owner disposes the instance with `try dispose()`.
    @inlinable
    static var disposable: Delivery {
        .disposing { construction, service throws(GraftError) in try construction.deliver(service) }
    }
}

extension Delivery where Service: AsyncDisposable {
    /// Its owner disposes the instance with `try await dispose()`.
    @inlinable
    static var asyncDisposable: Delivery {
        .disposing { construction, service throws(GraftError) in try construction.deliver(service) }
    }
}
