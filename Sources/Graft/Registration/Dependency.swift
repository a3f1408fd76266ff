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
    /// For a runtime argument, its position among the arguments a caller passes; `-1` for a
    /// dependency the graph supplies by key; `-2 - n` for registration number `n` itself (see
    /// ``exactRegistration``). One field for the three, so a declared dependency stays 40 bytes.
    @usableFromInline let argument: Int32

    /// The dependency on a parameter of type `Parameter`.
    @usableFromInline
    init<Parameter: Sendable>(parameter: Parameter.Type) {
        self.key = ServiceKey(Parameter.self)
        self.isParameter = true
        self.argument = -1
    }

    /// A dependency on exactly `key`.
    init(key: ServiceKey) {
        self.key = key
        self.isParameter = false
        self.argument = -1
    }

    /// `declared` as runtime argument number `position`: the caller passes it, not the graph.
    init(_ declared: DeclaredDependency, asArgument position: Int) {
        self.key = declared.key
        self.isParameter = declared.isParameter
        self.argument = Int32(position)
    }

    /// A dependency on registration number `index`, whose key is `key`: how a collection
    /// reaches every registration of a type, the ones a later registration shadows too.
    init(registration index: Int, key: ServiceKey) {
        self.key = key
        self.isParameter = false
        self.argument = -2 - Int32(clamping: index)
    }

    /// Whether the caller passes this value when resolving.
    var isArgument: Bool { argument >= 0 }

    /// The registration this dependency is linked to whatever its key's winner, or `nil`.
    var exactRegistration: Int? { argument <= -2 ? Int(-2 - argument) : nil }
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
        /// Handed over as a ``Lazy``, ``Provider`` or ``Factory`` and resolved later, so it forms
        /// no cycle. The parameter's own type is the form handed over: the engine makes it.
        case deferred
        /// A runtime argument: the caller passes it when resolving (see ``argument``).
        case argument
    }

    @usableFromInline let key: ServiceKey
    @usableFromInline let kind: Kind
    /// For a ``Factory``, the argument types it passes; `nil` for every other dependency.
    let factoryArguments: [ServiceKey]?
    /// For an `.argument`, its position among the runtime arguments.
    @usableFromInline let argument: Int

    init(
        key: ServiceKey,
        kind: Kind,
        factoryArguments: [ServiceKey]? = nil,
        argument: Int = -1
    ) {
        self.key = key
        self.kind = kind
        self.factoryArguments = factoryArguments
        self.argument = argument
    }

    /// What `declared` needs, given which keys are registered.
    ///
    /// A parameter whose own type is registered is a plain dependency; only a parameter type
    /// nobody registers is asked whether it wraps another service (`Lazy<T>`, `Provider<T>`,
    /// `T?`). That one run-time conformance check per unregistered parameter type is the only
    /// one linking makes.
    static func linked(_ declared: DeclaredDependency, isRegistered: Bool) -> Dependency {
        if declared.isArgument {
            return Dependency(key: declared.key, kind: .argument, argument: Int(declared.argument))
        }
        if declared.isParameter, !isRegistered,
            let wrapping = declared.key.type as? any WrappedDependency.Type
        {
            return wrapping.dependency
        }
        return Dependency(key: declared.key, kind: .direct)
    }

    /// Whether the dependent cannot be created before this dependency is.
    @usableFromInline var isImmediate: Bool { kind == .direct || kind == .optional }
}

/// A type that wraps another service as a dependency: `Lazy<T>`, `Provider<T>`, `T?`.
///
/// Asking for one needs no registration of its own; it works whenever the wrapped service is
/// registered (or, for `Optional`, is not).
protocol WrappedDependency {
    static var dependency: Dependency { get }
}

extension Optional: WrappedDependency {
    static var dependency: Dependency {
        Dependency(key: ServiceKey(Wrapped.self), kind: .optional)
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
