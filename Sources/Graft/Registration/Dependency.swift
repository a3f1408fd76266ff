/// A dependency as a registration declares it: a key, and whether it is an initializer's
/// parameter, whose type may be a `Lazy`, `Provider` or `Optional` of the service it needs.
///
/// Nothing about the type is asked while registering: a parameter's type is classified when
/// the graph is linked, and only when no registration answers for it (see
/// ``Dependency/linked(_:isRegistered:)``), so registering costs no run-time conformance lookup.
@usableFromInline
struct DeclaredDependency: Sendable {
    @usableFromInline let key: ServiceKey
    /// Whether the key is a parameter type still to be classified; `false` for a key named
    /// outright (a closure's declared dependency, an alias's target).
    @usableFromInline let isParameter: Bool

    /// The dependency on a parameter of type `Parameter`.
    @usableFromInline
    init<Parameter: Sendable>(parameter: Parameter.Type) {
        self.key = ServiceKey(Parameter.self)
        self.isParameter = true
    }

    /// A dependency on exactly `key`.
    init(key: ServiceKey) {
        self.key = key
        self.isParameter = false
    }
}

/// A dependency as the linked graph knows it: what it needs and how it is handed over.
@usableFromInline
struct Dependency: Sendable {
    @usableFromInline
    enum Kind: Sendable {
        /// Resolved before the dependent is created.
        case direct
        /// Resolved before the dependent is created when registered; `nil` otherwise.
        case optional
        /// Handed over as a ``Lazy`` or ``Provider`` and resolved later, so it forms no cycle.
        case deferred
    }

    @usableFromInline let key: ServiceKey
    @usableFromInline let kind: Kind
    /// For a `.deferred` dependency, how to wrap the link in a `Lazy` or `Provider`.
    @usableFromInline let wrapper: DependencyWrapper?

    init(key: ServiceKey, kind: Kind, wrapper: DependencyWrapper?) {
        self.key = key
        self.kind = kind
        self.wrapper = wrapper
    }

    /// What `declared` needs, given which keys are registered.
    ///
    /// A parameter whose own type is registered is a plain dependency; only a parameter type
    /// nobody registers is asked whether it wraps another service (`Lazy<T>`, `Provider<T>`,
    /// `T?`). That one run-time conformance check per unregistered parameter type is the only
    /// one linking makes.
    static func linked(_ declared: DeclaredDependency, isRegistered: Bool) -> Dependency {
        if declared.isParameter, !isRegistered,
            let wrapping = declared.key.type as? any WrappedDependency.Type
        {
            return wrapping.dependency
        }
        return Dependency(key: declared.key, kind: .direct, wrapper: nil)
    }

    /// Whether the dependent cannot be created before this dependency is.
    @usableFromInline var isImmediate: Bool { kind != .deferred }
}

/// Makes a `Lazy<T>` or `Provider<T>` that resolves the wrapped service through a link.
@usableFromInline
typealias DependencyWrapper = @Sendable (DeferredLink) -> any Sendable

/// A type that wraps another service as a dependency: `Lazy<T>`, `Provider<T>`, `T?`.
///
/// Asking for one needs no registration of its own; it works whenever the wrapped service is
/// registered (or, for `Optional`, is not).
protocol WrappedDependency {
    static var dependency: Dependency { get }
}

extension Optional: WrappedDependency {
    static var dependency: Dependency {
        Dependency(key: ServiceKey(Wrapped.self), kind: .optional, wrapper: nil)
    }
}

/// A type with a value meaning "absent": what an unregistered optional dependency receives.
protocol AbsentRepresentable {
    static var absent: Self { get }
}

extension Optional: AbsentRepresentable {
    static var absent: Self { nil }
}

/// The typed `nil` of `type`, when `type` is an `Optional`.
func absentValue<Value>(of type: Value.Type) -> Value? {
    (Value.self as? any AbsentRepresentable.Type)?.absent as? Value
}
