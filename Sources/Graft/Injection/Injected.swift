/// Property injection for objects that something else constructs: a framework, a storyboard,
/// a test harness.
///
/// The value resolves on first read from the resolver the object was bound to, and assigning
/// a value replaces the injected one. There is no process-wide container: bind each object,
/// usually right after it is made, with ``Container/injectProperties(into:)`` (or
/// ``Injected/bind(to:)`` for one property).
///
/// ```swift
/// final class LapTimer {
///     @Injected var clock: any RaceClock
///     @Injected(name: "pit") var radio: PitRadio
/// }
///
/// let timer = LapTimer()                      // made by someone else
/// container.injectProperties(into: timer)
/// timer.clock.start()
/// ```
///
/// A property bound to a container or scope holds it weakly, like ``Lazy`` and ``Provider``:
/// an object the container keeps (a singleton bound in an activation hook) never keeps the
/// container alive. Reading a property after its container is gone is an error.
///
/// Reading a property that cannot be resolved (unbound, its container gone, its factory
/// failing) is a programmer error, like unwrapping `nil`: it stops the program with the
/// error's message, which says what to do. Two ways handle those cases as a thrown
/// ``GraftError`` instead:
///
/// - ``Container/resolveProperties(of:)`` binds and resolves every property of the object at
///   once, where the object is handed over; what fails is thrown there, naming the property,
///   and every later read returns the value resolved then, so it cannot stop the program.
/// - The projected value reads one property: `try $clock.value`.
///
/// ```swift
/// let timer = LapTimer()
/// try container.resolveProperties(of: timer)  // throws now if a property cannot be resolved
/// timer.clock.start()                          // the value resolved above
/// ```
@propertyWrapper
public final class Injected<Value: Sendable>: Sendable {
    /// Where the property resolves from.
    private enum Binding: Sendable {
        /// A container or scope (or a factory's resolver, through its scope), held weakly.
        case origin(ResolutionOrigin)
        /// A resolver of the app's own, held as given.
        case resolver(any Resolver)
    }

    private struct State: Sendable {
        var binding: Binding?
        var value: Value?
    }

    private let name: String?
    private let state = Locked(State())

    /// A property injected from the registration of `Value` under `name`.
    ///
    /// - Parameter name: The registration's name; `nil` for the unnamed one.
    public init(name: String? = nil) {
        self.name = name
    }

    /// The injected value, resolved on first read; assigning replaces it.
    ///
    /// Stops the program when the property cannot be resolved; see the type's documentation for
    /// the throwing ways.
    public var wrappedValue: Value {
        get {
            do {
                return try value
            } catch {
                // The one documented trap (see the type's documentation): reading a property that
                // cannot be resolved is a programming error, like force-unwrapping nil.
                // `resolveProperties(of:)` and `$property.value` are the throwing alternatives for
                // code that wants to handle it.
                fatalError(error.description)
            }
        }
        set {
            state.withLock { $0.value = newValue }
        }
    }

    /// The wrapper itself, for binding it and for throwing access: `try $clock.value`.
    public var projectedValue: Injected<Value> { self }

    /// The injected value, resolved on first read.
    ///
    /// - Throws: ``GraftError`` with code ``GraftError/Code/unboundProperty`` when the property
    ///   is not bound, or the resolver's error when resolving fails.
    public var value: Value {
        get throws(GraftError) {
            let (binding, existing) = state.withLock { ($0.binding, $0.value) }
            if let existing { return existing }
            let key = ServiceKey(Value.self, name: name)
            guard let binding else {
                throw GraftError(
                    .unboundProperty,
                    "@Injected property of type \(Value.self) was read before it was bound to a container",
                    service: key.description,
                    hints: [
                        "bind the object first: container.injectProperties(into: object), "
                            + "or bind this property: object.$property.bind(to: container)"
                    ]
                )
            }
            let resolved: Value
            switch binding {
            case .origin(let origin):
                resolved = try origin.resolve(Value.self, name: name)
            case .resolver(let resolver):
                resolved = try resolver.resolve(Value.self, name: name)
            }
            return state.withLock { state in
                if let value = state.value { return value }
                state.value = resolved
                return resolved
            }
        }
    }

    /// Makes the property resolve from `resolver` on its next first read.
    ///
    /// A container or scope is held weakly; see the type's documentation.
    ///
    /// - Parameter resolver: A container or scope, or the resolver a factory or activation hook
    ///   receives (the property then resolves from that resolver's scope).
    public func bind(to resolver: any Resolver) {
        let binding = ResolutionOrigin(resolver).map(Binding.origin) ?? .resolver(resolver)
        state.withLock { $0.binding = binding }
    }

    /// Whether the property has a resolver or a value.
    public var isBound: Bool { state.withLock { $0.binding != nil || $0.value != nil } }
}

extension Injected: InjectableProperty {
    static var valueType: Any.Type { Value.self }

    func resolveNow() throws(GraftError) {
        _ = try value
    }
}
