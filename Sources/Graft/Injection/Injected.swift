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
/// Reading an unbound property is a programmer error, like unwrapping `nil`: it stops the
/// program with a message that says how to bind it. Use the projected value
/// (`try $clock.value`) to handle that case as a thrown ``GraftError`` instead.
@propertyWrapper
public final class Injected<Value: Sendable>: Sendable {
    private struct State: Sendable {
        var resolver: (any Resolver)?
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
    public var wrappedValue: Value {
        get {
            do {
                return try value
            } catch {
                // The one documented trap (see the type's documentation): reading an unbound
                // property is a programming error, like force-unwrapping nil. `$property.value`
                // is the throwing alternative for code that wants to handle it.
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
            let (resolver, existing) = state.withLock { ($0.resolver, $0.value) }
            if let existing { return existing }
            guard let resolver else {
                throw GraftError(
                    .unboundProperty,
                    "@Injected property of type \(Value.self) was read before it was bound to a container",
                    service: ServiceKey(Value.self, name: name).description,
                    hints: [
                        "bind the object first: container.injectProperties(into: object), "
                            + "or bind this property: object.$property.bind(to: container)"
                    ]
                )
            }
            let resolved = try resolver.resolve(Value.self, name: name)
            return state.withLock { state in
                if let value = state.value { return value }
                state.value = resolved
                return resolved
            }
        }
    }

    /// Makes the property resolve from `resolver` on its next first read.
    ///
    /// - Parameter resolver: A container or scope.
    public func bind(to resolver: any Resolver) {
        state.withLock { $0.resolver = resolver }
    }

    /// Whether the property has a resolver or a value.
    public var isBound: Bool { state.withLock { $0.resolver != nil || $0.value != nil } }
}

/// Lets ``Container/injectProperties(into:)`` find `@Injected` properties by reflection.
protocol InjectableProperty {
    func bind(to resolver: any Resolver)
}

extension Injected: InjectableProperty {}

extension Resolver {
    /// Binds every `@Injected` property of `object` to this resolver.
    ///
    /// ```swift
    /// let timer = LapTimer()
    /// container.injectProperties(into: timer)
    /// ```
    ///
    /// Properties of superclasses are bound too. Nothing resolves until a property is read.
    ///
    /// - Parameter object: An object with `@Injected` properties.
    /// - Returns: How many properties were bound.
    @discardableResult
    public func injectProperties(into object: AnyObject) -> Int {
        var bound = 0
        var mirror: Mirror? = Mirror(reflecting: object)
        while let current = mirror {
            for child in current.children {
                if let property = child.value as? any InjectableProperty {
                    property.bind(to: self)
                    bound += 1
                }
            }
            mirror = current.superclassMirror
        }
        return bound
    }
}
